/**
 * Issue 11.7: a server on protocol 2026-07-28 only (the official SDK v2 server with `legacy: "reject"`,
 * streamable HTTP) declares the MCP Skills extension to a client that negotiates that protocol. Our client
 * offers it (`server/discover`) and falls back to `initialize` for older servers; skills come from `skills/list`
 * and bodies are read verified. Runs the manager and the shipped bin.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type ResultPromise } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpManager } from "../../src/mcp/manager.js";
import { describeWithCorpus } from "../support/corpus.js";
import { CORPUS_SKILLS, copyServed, FIXTURE_SKILLS, type ServedSkills, testServer } from "./support.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));
const HTTP_SERVER = fileURLToPath(new URL("../support/skills-http-server.mjs", import.meta.url));

/** A 2026-07-28-only server over `skills` (two of them served), through the manager and the shipped bin. */
function negotiatesOver(skills: ServedSkills) {
  const [first, second] = skills.served;
  let root: string;
  let server: ResultPromise<{ reject: false }>;
  let url: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "skillwright-modern-"));
    server = execa(process.execPath, [HTTP_SERVER, "--root", copyServed(skills, root)], { reject: false });
    url = await new Promise<string>((resolve, reject) => {
      server.stdout?.on("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
      server.on("exit", () => reject(new Error("the HTTP skills server exited")));
    });
  });
  afterAll(async () => {
    server.kill("SIGTERM");
    await server;
    rmSync(root, { recursive: true, force: true });
  });

  it("a 2026-07-28-only server: connected on 2026-07-28, skills from skills/list, bodies verified", async () => {
    const manager = createMcpManager({
      servers: { modern: { type: "http", url }, legacy: testServer("--skills-list") },
      env: process.env,
      cwd: root,
      clientInfo: { name: "t", version: "0" },
    });
    try {
      const summary = await manager.summary();
      expect(
        summary.map((s) => [s.name, s.state, s.protocolVersion, s.skillsExtension, s.skillsVia]),
      ).toEqual([
        ["modern", "connected", "2026-07-28", true, "skills/list"],
        ["legacy", "connected", "2025-11-25", true, "skills/list"],
      ]);
      const found = await manager.skills();
      expect(found.filter((s) => s.mcpServer === "modern").map((s) => s.name)).toEqual([
        `mcp__modern__${first}`,
        `mcp__modern__${second}`,
      ]);
      const served = found.find((s) => s.name === `mcp__modern__${second}`);
      expect(await served?.loadBody()).toContain(skills.file);
      expect((await manager.instructions()).map((i) => i.server)).toEqual(["modern", "legacy"]);
    } finally {
      await manager.close();
    }
  });

  it("the shipped bin: doctor --start-mcp shows the negotiated protocol and the skills found", async () => {
    const config = JSON.stringify({ mcpServers: { modern: { type: "http", url } } });
    const doctor = await execa(
      process.execPath,
      [BIN, "doctor", "--start-mcp", "--cwd", root, "--home", root, "--mcp-config", config],
      { env: { SKILLWRIGHT_MANAGED_DIR: join(root, "managed") }, reject: false, timeout: 30_000 },
    );
    expect(doctor.stdout).toContain(
      "    connected, protocol 2026-07-28: 0 tools, 0 prompts, 2 resources, 2 skills (via skills/list)",
    );
    expect(doctor.stdout).toContain(`- mcp__modern__${second}: ${skills.starts[1]}`);
  });
}

describe("protocol negotiation, over skills the tests wrote", () => {
  negotiatesOver(FIXTURE_SKILLS);
});

describeWithCorpus("protocol negotiation, over real corpus skills", () => {
  negotiatesOver(CORPUS_SKILLS);
});
