/**
 * Issue 27.9 through the shipped bin: an MCP skill whose `skills/list` entry breaks the MCP Skills extension's
 * limits (a 1,068-character description) is refused when it is listed, with an `mcp-skill-refused` error that
 * `doctor` shows, instead of being listed and failing at every load; a server that publishes a
 * `skills://catalog` resource instead of skills gets an `mcp-skills-unread` hint saying what the engine reads.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryLimitProblems } from "../../src/mcp/entry-limits.js";
import { testServer } from "./support.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "skillwright-mcp-limits-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (args: string[], servers: Record<string, unknown>) =>
  execa(
    process.execPath,
    [BIN, ...args, "--cwd", root, "--home", root, "--mcp-config", JSON.stringify({ mcpServers: servers })],
    { env: { SKILLWRIGHT_MANAGED_DIR: join(root, "managed") }, reject: false, timeout: 30_000 },
  );

interface Entry {
  kind?: string;
  name: string;
  code?: string;
  severity?: string;
  message?: string;
  skills?: number;
}

describe("entryLimitProblems", () => {
  it("names each broken limit; a good entry has none", () => {
    expect(entryLimitProblems({ name: "greet", description: "Greets" }, "greet")).toEqual([]);
    expect(entryLimitProblems({ name: "greet", description: "x".repeat(1068) }, "greet")).toEqual([
      "its description is 1,068 characters, over 1,024",
    ]);
    expect(entryLimitProblems({ name: "Greet", description: "" }, "acme/greet")).toEqual([
      'its name "Greet" is not 1-64 lowercase letters, digits and single hyphens',
      "its description is empty",
    ]);
    expect(
      entryLimitProblems({ name: "greet", description: "d", compatibility: "", metadata: { a: 1 } }, "other"),
    ).toEqual([
      'its name "greet" is not the last segment of its path ("other")',
      "its compatibility is not a text of 1-500 characters",
      "its metadata does not map strings to strings",
    ]);
  });
});

describe("MCP skills the engine cannot use, in doctor and list (shipped bin)", () => {
  const limits = { lim: testServer("--skills-list", "--long-description") };

  it("a skills/list entry with a 1,068-character description is refused at listing time, and doctor says why", async () => {
    const doctor = await run(["doctor", "--start-mcp"], limits);
    expect(doctor.stdout).toContain(
      'MCP server "lim": skill skill://verbose/SKILL.md refused: its description is 1,068 characters, over 1,024',
    );
    expect(doctor.stdout).toMatch(
      /lim {2}\[cli\] .*\n {4}connected, protocol \S+: .* 2 skills \(via skills\/list\)/,
    );
    const report = JSON.parse((await run(["doctor", "--json", "--start-mcp"], limits)).stdout) as {
      diagnostics: Entry[];
    };
    const refused = report.diagnostics.filter((d) => d.code === "mcp-skill-refused");
    expect(refused.map((d) => d.severity)).toEqual(["error"]);
    const listed = JSON.parse((await run(["list", "--json", "--start-mcp"], limits)).stdout) as Entry[];
    expect(listed.map((e) => e.name).filter((n) => n.startsWith("mcp__lim__"))).toEqual([
      "mcp__lim__greet",
      "mcp__lim__lint-rules",
      "mcp__lim__review",
    ]);
  });

  it("a server with a skills://catalog resource and no skills gets a hint naming what the engine reads", async () => {
    const doctor = await run(["doctor", "--start-mcp"], { cat: testServer("--catalog") });
    expect(doctor.stdout).toContain(
      'MCP server "cat" lists skills://catalog but no skills the engine can read: it finds skills through the MCP Skills extension (the server declares io.modelcontextprotocol/skills and answers skills/list), else a skill://index.json resource, else skill://<name>/SKILL.md resources in resources/list',
    );
  });
});
