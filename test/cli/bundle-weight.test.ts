// What the shipped bundle (dist/bin) carries on every start-up. Module compilation is most of a short command's
// time, so a change that quietly adds hundreds of KB to a chunk every command loads fails here, not in a bench.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "./run-cli.js";

const BIN_DIR = fileURLToPath(new URL("../../dist/bin/", import.meta.url));
const SRC_DIR = fileURLToPath(new URL("../../src/", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${dir}${name}`);
}

describe("bundle weight", () => {
  beforeAll(assertBuilt);

  it("carries none of zod's locales (a named `{ z }` import bundles all of them: +540 KB in zod's chunk)", () => {
    // A string of zod's German locale (zod/v4/locales/de.js); any locale pulled in brings them all.
    const withLocales = readdirSync(BIN_DIR)
      .filter((name) => name.endsWith(".js") || name.endsWith(".cjs"))
      .filter((name) => readFileSync(`${BIN_DIR}${name}`, "utf8").includes('"zu haben"'));
    expect(withLocales).toEqual([]);
  });

  it("keeps zod in dist/bin/zod.cjs only, which a run requires on first use (scripts/bundle.mjs)", () => {
    // zod's English message for a wrong type: in whichever file carries zod's code.
    const withZod = readdirSync(BIN_DIR)
      .filter((name) => name.endsWith(".js") || name.endsWith(".cjs"))
      .filter((name) => readFileSync(`${BIN_DIR}${name}`, "utf8").includes("Invalid input: expected"));
    expect(withZod).toEqual(["zod.cjs"]);
  });

  it("src imports zod as a namespace (`import * as z`) or as types only", () => {
    const named = sourceFiles(SRC_DIR).filter((file) =>
      /^import \{[^}]*\} from "zod";/m.test(readFileSync(file, "utf8")),
    );
    expect(named).toEqual([]);
  });
});
