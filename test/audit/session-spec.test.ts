/**
 * Audit of SPEC §3, §5 and §7 through a real session: session variables in a body, the inline-shell cwd when
 * the session cwd is below the project root, the listing budget taken from the session model's context
 * window, listing deltas after `reload()`, and the fork concurrency bound.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_ID_HEADER } from "../../src/agent/model-types.js";
import { createEngine } from "../../src/engine/engine.js";
import { createNodeShell } from "../../src/io/shell.js";
import { openSession } from "../../src/session/open.js";
import {
  type Harness,
  INIT_ENTRY,
  LISTING_HEADER,
  lastUser,
  listingBlock,
  resultText,
  sendOn,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let e: Harness | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await e?.close();
  e = undefined;
  for (const c of cleanups.splice(0)) await c();
});

describe("session variables in a skill body (SPEC §5 table)", () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a skill placeholder, substituted by the engine
  const body = "SID=${CLAUDE_SESSION_ID} PD=${CLAUDE_PROJECT_DIR} SD=${SKILL_DIR}";

  it("CLAUDE_SESSION_ID is the session's id and CLAUDE_PROJECT_DIR the project dir, on the model path", async () => {
    e = await startHarness({
      files: { "project/.claude/skills/vars/SKILL.md": skillMd("description: vars", body) },
      turns: [toolTurn("Skill", { skill: "vars" }), textTurn("ok", { hasToolResultFor: "Skill" })],
    });
    await e.send("go");
    const texts = textBlocks(lastUser(e.body(1)).content);
    const dir = e.tree.path("project/.claude/skills/vars");
    expect(texts).toContain(
      `Base directory for this skill: ${dir}\n\nSID=${e.opened.session.id} PD=${e.cwd} SD=${dir}`,
    );
  });

  it("the same on the user's /name path", async () => {
    e = await startHarness({
      files: { "project/.claude/skills/vars/SKILL.md": skillMd("description: vars", body) },
      turns: [textTurn("ok")],
    });
    await e.send("/vars");
    const texts = textBlocks(lastUser(e.body(0)).content);
    expect(texts.some((t) => t.includes(`SID=${e?.opened.session.id} PD=${e?.cwd}`))).toBe(true);
  });
});

/** An engine and session whose cwd is `project/pkg`, below the git root `project`. */
async function subdirSession(tree: TmpTree, model: TestModel) {
  const engine = createEngine({
    cwd: tree.path("project/pkg"),
    home: tree.path("home"),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
  });
  cleanups.push(() => engine.close());
  return openSession(engine, { client: model.client, shell: createNodeShell(), allowedTools: ["Skill"] });
}

describe("inline shell cwd is the project dir (SPEC §5)", () => {
  it("with the session cwd below the git root, !`pwd` prints the project dir and CLAUDE_PROJECT_DIR agrees", async () => {
    const tree = await tmpTree({
      "project/.git": { dir: true },
      "project/pkg/.keep": "",
      "home/.keep": "",
      "project/.claude/skills/where/SKILL.md": skillMd(
        "description: where\nallowed-tools: Bash(pwd)",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a skill placeholder, substituted by the engine
        "PWD: !`pwd` PD=${CLAUDE_PROJECT_DIR}",
      ),
    });
    cleanups.push(() => tree.cleanup());
    const model = await startTestModel([toolTurn("Skill", { skill: "where" }), textTurn("ok")]);
    cleanups.push(() => model.close());
    const opened = await subdirSession(tree, model);
    await sendOn(opened, "go");
    const body = model.server.requests[1]?.body as Parameters<typeof lastUser>[0];
    const text = textBlocks(lastUser(body).content).join("\n");
    expect(text).toContain(`PWD: ${tree.path("project")} PD=${tree.path("project")}`);
  });
});

/** 20 skills of ~500-char descriptions: over 8,000 chars, under 30,000. */
function bigSkills(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) {
    const name = `big-${String(i).padStart(2, "0")}`;
    files[`project/.claude/skills/${name}/SKILL.md`] = skillMd(
      `description: Big ${i} ${"y".repeat(480)}`,
      "b",
    );
  }
  return files;
}

describe("the listing budget follows the session model's context window (SPEC §3)", () => {
  const listingOf = (t: Harness) =>
    textBlocks(lastUser(t.body(0)).content).find((x) => x.includes(LISTING_HEADER));

  it("a 200k-token model: 8,000 chars, so name-only entries and the marker line", async () => {
    e = await startHarness({
      files: bigSkills(),
      turns: [textTurn("ok")],
      session: { model: "claude-haiku-4-5" },
    });
    await e.send("hi");
    const listing = listingOf(e) ?? "";
    const lines = listing.split("\n").filter((l) => l.startsWith("- "));
    expect(lines.join("\n").length).toBeLessThanOrEqual(8_000);
    expect(lines.some((l) => !l.includes(":"))).toBe(true);
    expect(listing).toMatch(/\(\d+ skills above are listed by name only/);
  });

  it("a 1M-token model (the default sonnet): every entry in full", async () => {
    e = await startHarness({ files: bigSkills(), turns: [textTurn("ok")] });
    await e.send("hi");
    const listing = listingOf(e) ?? "";
    expect(listing.split("\n").filter((l) => l.startsWith("- ") && l.includes(": Big "))).toHaveLength(20);
    expect(listing).not.toContain("listed by name only");
  });
});

describe("listing deltas after reload() (SPEC §2 reload, §3 deltas)", () => {
  // SPEC §3 "Skills that appear later (… reload) are announced in the next request": a session follows
  // engine.catalog.onChange.
  it("a skill added on disk and picked up by engine.reload() is announced in the next request", async () => {
    e = await startHarness({
      files: { "project/.claude/skills/old/SKILL.md": skillMd("description: Old one", "OLD") },
      turns: [textTurn("first"), textTurn("second")],
    });
    await e.send("one");
    const { writeFile, mkdir } = await import("node:fs/promises");
    await mkdir(e.tree.path("project/.claude/skills/fresh"), { recursive: true });
    await writeFile(
      e.tree.path("project/.claude/skills/fresh/SKILL.md"),
      skillMd("description: Fresh one", "FRESH"),
    );
    await e.engine.reload();
    await e.send("two");
    expect(textBlocks(lastUser(e.body(1)).content)).toContain(listingBlock("- fresh: Fresh one"));
  });

  it("(control) before reload the on-disk skill is not visible, so the delta test above is meaningful", async () => {
    e = await startHarness({
      files: { "project/.claude/skills/old/SKILL.md": skillMd("description: Old one", "OLD") },
      turns: [textTurn("first")],
    });
    await e.send("one");
    expect(textBlocks(lastUser(e.body(0)).content)).toContain(listingBlock("- old: Old one", INIT_ENTRY));
  });
});

describe("forks run in parallel bounded by p-limit, default 4 (SPEC §7)", () => {
  it("six forked skills in one assistant message: at most four sub-agents talk to the model at once", async () => {
    const files: Record<string, string> = {};
    const calls = [];
    for (let i = 0; i < 6; i++) {
      files[`project/.claude/skills/f${i}/SKILL.md`] = skillMd(
        `description: fork ${i}\ncontext: fork`,
        `TASK-${i}`,
      );
      calls.push({ type: "tool_use" as const, id: `toolu_f${i}`, name: "Skill", input: { skill: `f${i}` } });
    }
    e = await startHarness({
      files,
      turns: [
        { match: { agentId: null }, response: { content: calls } },
        {
          match: { agentId: "*" },
          response: { content: [{ type: "text", text: "sub done" }] },
          delayMs: 600,
          repeat: true,
        },
        textTurn("all done", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("go");
    const subs = e.model.server.requests.filter((r) => r.headers[AGENT_ID_HEADER] !== undefined);
    expect(subs).toHaveLength(6);
    const start = Math.min(...subs.map((r) => r.time));
    const early = subs.filter((r) => r.time - start < 300);
    expect(early).toHaveLength(4);
    const results = toolResults(e.body(1));
    expect(results.map((r) => resultText(r))).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `Skill "f${i}" completed (forked execution).\n\nResult:\nsub done`),
    );
  });
});

describe("paths touched by a forked sub-agent's tools (SPEC §9)", () => {
  // SPEC §9: a conditional skill activates when a matching file "is read, written, edited or found by a tool"
  // and then "stays active for the session": a sub-agent's tools count too.
  it("a Read by a forked Explore agent activates a matching conditional skill for the session", async () => {
    e = await startHarness({
      files: {
        "project/src/a.ts": "export const a = 1;\n",
        "project/.claude/skills/ts-style/SKILL.md": skillMd(
          "description: TS style\npaths: src/**/*.ts",
          "TS",
        ),
        "project/.claude/skills/scout/SKILL.md": skillMd(
          "description: scout\ncontext: fork\nagent: Explore",
          "read src/a.ts",
        ),
      },
      turns: [
        toolTurn("Skill", { skill: "scout" }, { match: { agentId: null } }),
        toolTurn("Read", { path: "src/a.ts" }, { match: { agentId: "*" } }),
        textTurn("read it", { agentId: "*", hasToolResultFor: "Read" }),
        toolTurn("Skill", { skill: "ts-style" }, { match: { agentId: null, hasToolResultFor: "Skill" } }),
        textTurn("done", { agentId: null }),
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("go");
    const [afterActivation] = toolResults(e.body(2));
    expect(resultText(afterActivation ?? { type: "x" })).toBe("Launching skill: ts-style");
  });

  it("(control) the same Read by the main agent does activate it", async () => {
    e = await startHarness({
      files: {
        "project/src/a.ts": "export const a = 1;\n",
        "project/.claude/skills/ts-style/SKILL.md": skillMd(
          "description: TS style\npaths: src/**/*.ts",
          "TS",
        ),
      },
      turns: [
        toolTurn("Read", { path: "src/a.ts" }),
        toolTurn("Skill", { skill: "ts-style" }, { match: { hasToolResultFor: "Read" } }),
        textTurn("done", { hasToolResultFor: "Skill" }),
      ],
    });
    await e.send("go");
    expect(resultText(toolResults(e.body(2))[0] ?? { type: "x" })).toBe("Launching skill: ts-style");
  });
});

describe("fork progress reaches the host while the fork runs (SPEC §7)", () => {
  it("fork_progress events (turns, tool calls) arrive before the parent's Skill call ends", async () => {
    e = await startHarness({
      files: {
        "project/notes.txt": "alpha\n",
        "project/.claude/skills/scan/SKILL.md": skillMd(
          "description: scan\ncontext: fork\nagent: Explore",
          "scan",
        ),
      },
      turns: [
        toolTurn("Skill", { skill: "scan" }, { match: { agentId: null } }),
        toolTurn("Read", { path: "notes.txt" }, { match: { agentId: "*" } }),
        textTurn("scanned", { agentId: "*", hasToolResultFor: "Read" }),
        textTurn("done", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      session: { allowedTools: ["Skill"] },
    });
    const events = await e.send("go");
    const skillEnd = events.findIndex((ev) => ev.type === "tool_end" && ev.agentId === undefined);
    const progress = events
      .map((ev, i) => [ev, i] as const)
      .filter(([ev]) => ev.type === "fork_progress")
      .map(([ev, i]) => ({ ev, i }));
    expect(skillEnd).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((p) => p.i < skillEnd)).toBe(true);
    const last = progress.at(-1)?.ev;
    expect(last?.type === "fork_progress" && [last.turn, last.toolCalls]).toEqual([2, 1]);
  });
});
