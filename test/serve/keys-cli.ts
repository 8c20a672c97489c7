import { expect } from "vitest";
import { API_KEY_TTL_MS } from "../../src/serve/http/api-key-cache.js";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { apiKeyId } from "../../src/serve/store/workspaces.js";
import { cli } from "../cli/run-cli.js";
import type { TmpTree } from "../support/tmp-tree.js";
import type { ServeProcess } from "./serve-process.js";

// What test/serve/keys.test.ts and keys-instances.test.ts both do: `skillwright keys …` through the shipped bin,
// and requests to a running serve with a key.

export interface ListedKey {
  id: string;
  workspace: string;
  created_at: string;
}

/** The helpers, running the bin in the temp tree `tree()` gives (read when called, so it may be made later). */
export function keysCli(tree: () => TmpTree) {
  /** Makes a key for `workspace` and returns it with the id `keys create` reports. */
  async function createKey(db: string, workspace: string): Promise<{ key: string; id: string }> {
    const made = await cli(tree(), ["keys", "create", "--workspace", workspace, "--db", db]);
    expect(made.code, made.stderr).toBe(0);
    const id = /\(id ([0-9a-f]+)\)/.exec(made.stderr)?.[1];
    if (id === undefined) throw new Error(`no id in: ${made.stderr}`);
    return { key: made.stdout.trim(), id };
  }

  /** Runs `serve` with `key` as its --api-key (or as SKILLWRIGHT_API_KEY), expecting it to refuse to start. */
  async function serveRefusing(db: string, key: string, from: "flag" | "env") {
    const argv = ["serve", "--port", "0", "--db", db, ...(from === "flag" ? ["--api-key", key] : [])];
    return cli(tree(), argv, "home/repo", from === "env" ? { SKILLWRIGHT_API_KEY: key } : {});
  }

  /** Checks that `serve` refused the revoked key `key`: exit 1, the reason on stderr, never listening. */
  function expectRefused(
    result: { code: number; stdout: string; stderr: string },
    key: string,
    from: string,
  ) {
    expect(result.stdout).not.toContain("listening on");
    expect(result.stderr).toContain(
      `skillwright: the key given by ${from} (id ${apiKeyId(hashApiKey(key))}) was revoked with \`skillwright keys revoke\` and stays revoked`,
    );
    expect(result.code).toBe(1);
  }

  /** The status of an authenticated request to the served API. */
  async function statusWith(server: ServeProcess, key: string): Promise<number> {
    const response = await fetch(`${server.url}/v1/skills`, { headers: { "x-api-key": key } });
    await response.body?.cancel();
    return response.status;
  }

  /** `keys …` through the running `server`, with `key` as the operator key. */
  function keysVia(server: ServeProcess, argv: string[], key: string) {
    return cli(tree(), ["keys", ...argv, "--server", server.url, "--api-key", key]);
  }

  /** The key `keys create` printed, and its id. */
  function madeKey(made: { code: number; stdout: string; stderr: string }): { key: string; id: string } {
    expect(made.code, made.stderr).toBe(0);
    const key = made.stdout.trim();
    expect(made.stderr).toContain(`(id ${apiKeyId(hashApiKey(key))})`);
    return { key, id: apiKeyId(hashApiKey(key)) };
  }

  /**
   * Waits until `server` refuses `key`, for at most the key cache's TTL (plus a second for the requests
   * themselves): every running instance must refuse a revoked key within it.
   */
  async function refusedWithinTtl(server: ServeProcess, key: string): Promise<void> {
    await expect
      .poll(() => statusWith(server, key), { timeout: API_KEY_TTL_MS + 1_000, interval: 100 })
      .toBe(401);
  }

  return { createKey, serveRefusing, expectRefused, statusWith, refusedWithinTtl, keysVia, madeKey };
}
