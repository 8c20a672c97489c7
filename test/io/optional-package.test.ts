import { describe, expect, it } from "vitest";
import { importOptional, isMissingPackage, missingPackageLine } from "../../src/io/optional-package.js";

// Optional dependencies left out by `npm install --omit=optional`: Node's "cannot find" becomes one line naming
// what to install; any other failure passes through. (test/cli/pack.test.ts installs the package without them.)

describe("importOptional", () => {
  it("turns a package Node cannot find into a line naming what to install", async () => {
    // A specifier in a variable: the type checker looks for no such module.
    const name = "@opentelemetry/not-a-real-package";
    const missing = importOptional("@opentelemetry/sdk-trace-base", () => import(name));
    await expect(missing).rejects.toThrow(missingPackageLine("@opentelemetry/sdk-trace-base"));
    await expect(missing).rejects.toThrow(
      "install them with npm install @opentelemetry/sdk-trace-base @opentelemetry/sdk-metrics",
    );
  });

  it("passes any other failure through, and a loaded module back", async () => {
    const broken = new Error("the module threw while loading");
    await expect(importOptional("sharp", () => Promise.reject(broken))).rejects.toBe(broken);
    await expect(importOptional("sharp", async () => ({ loaded: true }))).resolves.toEqual({ loaded: true });
  });

  it("reads only Node's not-found errors for the package named", async () => {
    const notFound = Object.assign(new Error("Cannot find package 'sharp' imported from /x.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    expect(isMissingPackage(notFound, "sharp")).toBe(true);
    expect(isMissingPackage(notFound, "@anthropic-ai/sandbox-runtime")).toBe(false);
    expect(isMissingPackage(new Error("Cannot find package 'sharp'"), "sharp")).toBe(false);
  });
});
