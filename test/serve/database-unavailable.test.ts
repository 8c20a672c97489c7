import { describe, expect, it } from "vitest";
import { databaseUnavailable } from "../../src/serve/errors.js";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("databaseUnavailable", () => {
  it("answers 503 overloaded_error for a refused, reset or terminated connection", () => {
    for (const error of [
      withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      withCode("terminating connection due to administrator command", "57P01"),
      withCode("the database system is starting up", "57P03"),
      withCode("connection failure", "08006"),
      new Error("Connection terminated unexpectedly"),
      new Error("wrapped", { cause: withCode("read ECONNRESET", "ECONNRESET") }),
      new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")], "all failed"),
    ]) {
      expect(databaseUnavailable(error)).toMatchObject({
        type: "overloaded_error",
        status: 503,
        message: "the database is unavailable; retry shortly",
      });
    }
  });

  it("leaves other errors alone", () => {
    expect(databaseUnavailable(withCode('relation "x" does not exist', "42P01"))).toBeUndefined();
    expect(databaseUnavailable(new Error("boom"))).toBeUndefined();
    expect(databaseUnavailable("not an error")).toBeUndefined();
  });
});
