/**
 * Issue 11.7: `doctor --start-mcp` summarises each MCP server (connected or why not, what it offers, how its
 * skills were found), `list --json` shows a server that failed to start, and `show` fetches an MCP skill through
 * the client. Runs the shipped bin against the official SDK's skills server, over skills the tests wrote and,
 * when there is one, over real skills of the corpus.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeWithCorpus } from "../support/corpus.js";
import {
  CORPUS_SKILLS,
  copyServed,
  FIXTURE_SKILLS,
  SERVER_SCRIPT,
  type ServedSkills,
  SKILLS_SERVER,
} from "./support.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

interface Row {
  kind: string;
  name: string;
  state: string;
  reason?: string;
  tools?: number;
  skills?: number;
  skillsVia?: string;
  resources?: number;
  protocolVersion?: string;
  skillsExtension?: boolean;
}

/** doctor, list and show with the MCP servers `corpus` (the skills server over `skills`) and `broken`. */
function servedBy(skills: ServedSkills) {
  const [first, second] = skills.served;
  let root: string;
  let config: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "skillwright-doctor-mcp-"));
    const corpus = { command: process.execPath, args: [SKILLS_SERVER, "--root", copyServed(skills, root)] };
    const broken = { command: process.execPath, args: [SERVER_SCRIPT, "--crash"] };
    config = JSON.stringify({ mcpServers: { corpus, broken } });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const run = (args: string[]) =>
    execa(process.execPath, [BIN, ...args, "--cwd", root, "--home", root, "--mcp-config", config], {
      env: { SKILLWRIGHT_MANAGED_DIR: join(root, "managed") },
      reject: false,
      timeout: 30_000,
    });

  it("doctor --start-mcp: per-server summary, and why a server failed", async () => {
    const human = await run(["doctor", "--start-mcp"]);
    expect(human.stdout).toMatch(
      /corpus {2}\[cli\] --mcp-config \(inline JSON\)\n {4}connected, protocol \S+: 1 tools, 0 prompts, \d+ resources, 2 skills \(via skills\/list\)/,
    );
    expect(human.stdout).toMatch(
      /broken {2}\[cli\] .*\n {4}failed: exited with code 1; stderr: mcp-server: crashing on purpose/,
    );
    const report = JSON.parse((await run(["doctor", "--json", "--start-mcp"])).stdout) as {
      mcpServers: Row[];
    };
    const corpus = report.mcpServers.find((r) => r.name === "corpus");
    expect(corpus).toMatchObject({
      state: "connected",
      skills: 2,
      skillsVia: "skills/list",
      skillsExtension: true,
    });
    expect(report.mcpServers.find((r) => r.name === "broken")?.state).toBe("failed");
  });

  it("list --json --start-mcp: the skills, then one entry per server, the failed one with its reason", async () => {
    const rows = JSON.parse((await run(["list", "--json", "--start-mcp"])).stdout) as (Row & {
      name: string;
    })[];
    expect(rows.filter((r) => r.name.startsWith("mcp__corpus__")).map((r) => r.name)).toEqual([
      `mcp__corpus__${first}`,
      `mcp__corpus__${second}`,
    ]);
    const servers = rows.filter((r) => r.kind === "mcp-server");
    expect(servers.map((r) => [r.name, r.state])).toEqual([
      ["corpus", "connected"],
      ["broken", "failed"],
    ]);
    expect(servers[1]?.reason).toContain("exited with code 1");
  });

  it(`show mcp__corpus__${second} fetches the skill through the MCP client (no ENOENT)`, async () => {
    const show = await run(["show", `mcp__corpus__${second}`, "--json"]);
    expect(show.stderr).not.toContain("ENOENT");
    expect(show.exitCode).toBe(0);
    const record = JSON.parse(show.stdout) as {
      frontmatter: { name: string };
      body: string;
      expansion: string;
    };
    expect(record.frontmatter.name).toBe(second);
    expect(record.body).toContain(skills.file);
    expect(record.expansion).toContain(`Base directory for this skill: skill://${second}`);
  });
  return { root: () => root };
}

describe("MCP servers in doctor, list and show, over skills the tests wrote", () => {
  const { root } = servedBy(FIXTURE_SKILLS);
  it("show of an MCP prompt maps the args to its arguments; missing ones are a clear error, not a crash", async () => {
    const dir = root();
    const prompts = JSON.stringify({
      mcpServers: { tst: { command: process.execPath, args: [SERVER_SCRIPT] } },
    });
    const show = (args: string[]) =>
      execa(
        process.execPath,
        [BIN, "show", "mcp__tst__review", ...args, "--cwd", dir, "--home", dir, "--mcp-config", prompts],
        { env: { SKILLWRIGHT_MANAGED_DIR: join(dir, "managed") }, reject: false, timeout: 30_000 },
      );
    const good = await show(["a.ts", "security"]);
    expect(good.exitCode).toBe(0);
    expect(good.stdout).toContain("## Body\nReview a.ts.\n\nFocus: security");
    const missing = await show([]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(
      "Could not get mcp__tst__review: Missing required argument file for /mcp__tst__review.",
    );
    expect(missing.stderr).not.toContain("    at ");
  });
});

describeWithCorpus("MCP servers in doctor, list and show, over real corpus skills", () => {
  servedBy(CORPUS_SKILLS);
});
