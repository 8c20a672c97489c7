/**
 * Issue 27.9: a skill a server publishes mid-session is seen on both protocols. On 2026-07-28 `list_changed`
 * notifications come only on a `subscriptions/listen` stream, which the manager opens (and reopens when it
 * drops); on 2025-11-25 they come unasked. Real servers: the official SDK v2 server over streamable HTTP
 * (2026-07-28 only) and over stdio (2025-11-25), each publishing a skill on command.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_LISTEN_REOPENS } from "../../src/mcp/listen.js";
import { createMcpManager, type McpManager } from "../../src/mcp/manager.js";
import { copyServed, FIXTURE_SKILLS, type HttpSkillsServer, startHttpSkillsServer } from "./support.js";

const skills = FIXTURE_SKILLS;
const extraName = `mcp__modern__${skills.extra}`;

let root: string;
let server: HttpSkillsServer;
let manager: McpManager | undefined;
const changes: string[] = [];
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "skillwright-listen-"));
  changes.length = 0;
  server = await startHttpSkillsServer([
    ...["--root", copyServed(skills, root)],
    ...["--extra", join(skills.dir, skills.extra)],
    "--prompts",
  ]);
});
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

function modernManager(): McpManager {
  manager = createMcpManager({
    servers: { modern: { type: "http", url: server.url } },
    env: process.env,
    cwd: root,
    clientInfo: { name: "t", version: "0" },
    onListChanged: (what, name) => changes.push(`${name}:${what}`),
  });
  return manager;
}

describe("list changes on protocol 2026-07-28 (subscriptions/listen)", () => {
  it("a skill published mid-session: the listen stream's list_changed drops the list and the next listing has it", async () => {
    const m = modernManager();
    const before = await m.skills();
    expect(before.map((s) => s.name)).not.toContain(extraName);
    await server.control("publish");
    await expect.poll(() => changes).toEqual(["modern:skills"]);
    expect((await server.stats()).listening).toBe(1);
    const after = await m.skills();
    expect(after.map((s) => s.name)).toContain(extraName);
    expect(await after.find((s) => s.name === extraName)?.loadBody()).toContain("# Release notes");
    expect(m.diagnostics().filter((d) => d.code === "mcp-failed")).toEqual([]);
  });

  it("a prompt added mid-session: prompts list_changed on the stream, and the next listing has the command", async () => {
    const m = modernManager();
    expect((await m.prompts()).map((p) => p.name)).toEqual(["mcp__modern__review"]);
    await server.control("add-prompt");
    await expect.poll(() => changes).toEqual(["modern:prompts"]);
    expect((await m.prompts()).map((p) => p.name)).toEqual(["mcp__modern__review", "mcp__modern__summarize"]);
  });

  it("a listen stream that drops is reopened (and the lists relisted), and later changes still arrive", async () => {
    const m = modernManager();
    await m.skills();
    expect(await server.control("drop-listen")).toEqual({ dropped: 1 });
    await expect.poll(async () => (await server.stats()).methods["subscriptions/listen"]).toBe(2);
    await expect.poll(async () => (await server.stats()).listening).toBe(1);
    // Whatever changed while it was down is relisted.
    await expect.poll(() => changes).toEqual(["modern:prompts", "modern:skills"]);
    await server.control("publish");
    await expect.poll(() => changes).toEqual(["modern:prompts", "modern:skills", "modern:skills"]);
    expect((await m.skills()).map((s) => s.name)).toContain(extraName);
    expect(m.diagnostics().filter((d) => d.code === "mcp-failed")).toEqual([]);
  });

  it(`a stream that keeps dropping is reopened ${MAX_LISTEN_REOPENS} times, then a warning (the server stays usable)`, async () => {
    const m = modernManager();
    await m.skills();
    for (let reopened = 1; reopened <= MAX_LISTEN_REOPENS; reopened++) {
      await server.control("drop-listen");
      await expect
        .poll(async () => (await server.stats()).methods["subscriptions/listen"])
        .toBe(reopened + 1);
      await expect.poll(async () => (await server.stats()).listening).toBe(1);
    }
    await server.control("drop-listen");
    await expect
      .poll(() =>
        m
          .diagnostics()
          .filter((d) => d.code === "mcp-failed")
          .map((d) => d.message),
      )
      .toEqual([
        `MCP server "modern": the subscriptions/listen stream dropped ${MAX_LISTEN_REOPENS + 1} times; changes to its lists are no longer followed`,
      ]);
    expect((await server.stats()).listening).toBe(0);
    expect(m.status()).toEqual([{ name: "modern", state: "connected", pid: undefined }]);
    expect((await m.skills()).map((s) => s.name)).toContain(`mcp__modern__${skills.served[0]}`);
  });
});
