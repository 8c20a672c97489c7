/**
 * Per-skill context accounting (issue #48 item 3) on one real session against the scripted model: an inline
 * skill re-attached after a compaction, a fork, a skill whose expansion expired. The library's
 * `session.contextUsage()`, `skillwright stats --session` (the built bin over the same transcript) and the
 * interactive `/context` table agree, because one function computes them.
 */
import { PassThrough } from "node:stream";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../../src/cli/args.js";
import { interactiveCommand } from "../../../src/cli/interactive.js";
import type { CliIo } from "../../../src/cli/io.js";
import { createEngine } from "../../../src/engine/engine.js";
import { estimateTokens } from "../../../src/session/compaction/tokens.js";
import {
  contextUsageLines,
  type SkillContextUsage,
} from "../../../src/session/skill-context/context-usage.js";
import { expiredSkillStub } from "../../../src/session/skill-context/expiry.js";
import { assertBuilt, BIN } from "../../cli/run-cli.js";
import { type Harness, skillMd, startHarness } from "../../support/harness.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../../support/model-server.js";

/** The interactive mode in-process with `lines` typed, then end of input; what it printed. */
async function interactive(harness: Harness, argv: string[], lines: string[]) {
  let stdout = "";
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stdout += text;
    },
    env: {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: harness.model.server.url,
      SKILLWRIGHT_MANAGED_DIR: harness.tree.path("managed"),
    },
    cwd: harness.cwd,
    home: harness.home,
    bundledDir: harness.tree.path("no-bundled"),
  };
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) throw new Error(parsed.message);
  const engine = createEngine({ cwd: io.cwd, home: io.home, env: io.env });
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const done = interactiveCommand(engine, io, parsed.args, { input, output });
  input.end(lines.map((l) => `${l}\n`).join(""));
  const code = await done;
  await engine.close();
  return { code, stdout };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const KEEPER_BODY = `KEEPER-BODY\n${"Keep the changelog tidy.\n".repeat(20)}`;
const EXPIRING_BODY = `EXPIRING-BODY\n${"Check the flags twice.\n".repeat(10)}`;

describe("per-skill context accounting", () => {
  it("the library, stats --session and /context agree on inline, fork, expired and compacted skills", async () => {
    h = await startHarness({
      files: {
        "project/.claude/skills/keeper/SKILL.md": skillMd("description: Keeps the changelog", KEEPER_BODY),
        "project/.claude/skills/expiring/SKILL.md": skillMd(
          "description: Checks flags\nttl-turns: 1",
          EXPIRING_BODY,
        ),
        "project/.claude/skills/forker/SKILL.md": skillMd(
          "description: Researches in a fork\ncontext: fork",
          "FORKER-TASK: look around and report.",
        ),
        "project/.claude/settings.local.json": JSON.stringify({ permissions: { allow: ["Skill"] } }),
      },
      turns: [
        {
          match: { agentId: "*" },
          response: { content: [{ type: "text", text: "FORK-REPORT: all fine." }] },
        },
        toolTurn("Skill", { skill: "keeper" }),
        toolTurn("Skill", { skill: "forker" }),
        textTurn("turn one done"),
        textTurn("SUMMARY of turn one"),
        toolTurn("Skill", { skill: "expiring" }),
        textTurn("turn two done"),
        textTurn("turn three done"),
        textTurn("turn four done"),
      ],
    });
    const session = h.opened.session;
    await h.send("one");
    const compacted = await session.compact();
    expect(compacted.ok).toBe(true);
    await h.send("two");
    await h.send("three");
    await h.send("four");

    const usage = await session.contextUsage();
    const row = (name: string) => {
      const found = usage.skills.find((s) => s.name === name);
      if (found === undefined) throw new Error(`no row for ${name}: ${JSON.stringify(usage)}`);
      return found;
    };
    // keeper: invoked before the compaction, so its section of the re-attachment block, and its listing line.
    expect(row("keeper").reattached).toBeGreaterThan(estimateTokens(KEEPER_BODY));
    expect(row("keeper").expansions).toBe(0);
    expect(row("keeper").listing).toBeGreaterThan(0);
    // expiring: invoked in turn two with ttl-turns 1, stubbed from turn four.
    expect(row("expiring").expansions).toBe(0);
    expect(row("expiring").expiredStubs).toBe(estimateTokens(expiredSkillStub("expiring")));
    // forker: its fork's own conversation. Its task text was the fork's, never the main agent's, so the
    // compaction did not re-attach it (nor do the requests after it carry it).
    expect(row("forker").forks).toBeGreaterThan(0);
    expect(row("forker").reattached).toBe(0);
    expect(JSON.stringify(h.bodies().at(-1)?.messages)).toContain("KEEPER-BODY");
    expect(JSON.stringify(h.bodies().at(-1)?.messages)).not.toContain("FORKER-TASK");
    expect(usage.total.mainTotal).toBe(usage.skills.reduce((sum, s) => sum + s.mainTotal, 0));

    assertBuilt();
    const stats = await execa(
      process.execPath,
      [BIN, "stats", "--session", session.id, "--json", "--home", h.home],
      { cwd: h.cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, extendEnv: false, reject: false },
    );
    expect(stats.exitCode, String(stats.stderr)).toBe(0);
    const fromBin = JSON.parse(String(stats.stdout)) as SkillContextUsage & { session: string };
    expect(fromBin).toEqual({ session: session.id, ...usage });

    const table = await execa(process.execPath, [BIN, "stats", "--session", session.id, "--home", h.home], {
      cwd: h.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      extendEnv: false,
      reject: false,
    });
    expect(String(table.stdout)).toBe(contextUsageLines(usage).join("\n"));

    // The interactive mode, resuming the session: `/context` prints the same table.
    const typed = await interactive(h, ["--resume", session.id], ["/context"]);
    expect(typed.stdout).toContain("/context");
    expect(typed.stdout).toContain(`${contextUsageLines(usage).join("\n")}\n`);
  }, 180_000);

  it("an unknown session is exit 1 with a clear line", async () => {
    h = await startHarness({ turns: [] });
    assertBuilt();
    const result = await execa(
      process.execPath,
      [BIN, "stats", "--session", "0f0e0d0c-no-such-session", "--home", h.home],
      { cwd: h.cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, extendEnv: false, reject: false },
    );
    expect(result.exitCode).toBe(1);
    expect(String(result.stderr)).toContain("No session 0f0e0d0c-no-such-session");
  }, 120_000);
});
