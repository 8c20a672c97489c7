// `npx skillwright serve` on a machine that has never run skillwright: no ~/.skillwright, no --db. The default
// PGlite store must be created with its missing parents, and the server must answer the SDK at once.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

describe("serve on a first run", () => {
  let home: string | undefined;
  let served: ServeProcess | undefined;
  afterEach(async () => {
    await served?.stop();
    served = undefined;
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("creates ~/.skillwright/data with its parents and answers the SDK client", async () => {
    home = await mkdtemp(join(tmpdir(), "sw-first-run-"));
    served = await startServe(["--api-key", "first-key"], { HOME: home });
    const page = await sdkClient(served.url, "first-key").beta.skills.list();
    expect(page.data).toEqual([]);
    const data = await stat(join(home, ".skillwright", "data"));
    expect(data.isDirectory()).toBe(true);
    expect(data.mode & 0o077).toBe(0);
  }, 60_000);
});
