// serve's health routes and access log line, in process over a real PGlite store: readiness follows the
// database (a closed one is a 503 that names no host), liveness does not.
import { describe, expect, it } from "vitest";
import { accessLogLine } from "../../src/serve/http/access-log.js";
import { healthRoutes } from "../../src/serve/http/health-routes.js";
import { createStore } from "../../src/serve/store/store.js";
import { freshPgliteDriver } from "../support/pglite-template.js";

describe("healthRoutes", () => {
  it("/readyz is 200 while the database answers and 503 once it is gone; /healthz stays 200", async () => {
    const store = await createStore(await freshPgliteDriver());
    const app = healthRoutes(store.db);
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    await store.close();
    const gone = await app.request("/readyz");
    expect(gone.status).toBe(503);
    expect(await gone.json()).toEqual({ status: "unavailable", reason: "the database does not answer" });
    const live = await app.request("/healthz");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
  });
});

describe("accessLogLine", () => {
  it("time, id, method, path, status and whole milliseconds", () => {
    expect(
      accessLogLine({
        startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
        requestId: "req_01abc",
        method: "POST",
        path: "/v1/sessions/s_1/events",
        status: 201,
        ms: 12.6,
      }),
    ).toBe("2026-01-02T03:04:05.678Z req_01abc POST /v1/sessions/s_1/events 201 13ms");
  });
});
