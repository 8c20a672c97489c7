import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { AGENT_ID_HEADER } from "../../src/agent/model-types.js";
import { createFileTranscriptStore, type TranscriptStore } from "../../src/session/transcript-store.js";
import {
  bodyOf,
  firstMessageTexts,
  forkRequests,
  mainRequests,
  openTestSession,
  resultText,
  sendAll,
  toolResultsOf,
  transcript,
} from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { isAlive, waitForPid, waitUntil } from "../support/processes.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const fork = (name: string, extra: string, task: string) =>
  `---\ndescription: ${name} skill\ncontext: fork\n${extra}---\n${task}\n`;

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "repo/.git": { dir: true },
    "repo/notes.txt": "alpha beta gamma\n",
    "repo/.claude/skills/scan/SKILL.md": fork(
      "scan",
      "agent: Explore\nmodel: haiku\neffort: low\n",
      "SCAN-TASK: read notes.txt",
    ),
    "repo/.claude/skills/quick/SKILL.md": fork("quick", "", "QUICK-TASK"),
    "repo/.claude/skills/par-a/SKILL.md": fork("par-a", "", "PAR-A-TASK"),
    "repo/.claude/skills/par-b/SKILL.md": fork("par-b", "", "PAR-B-TASK"),
    "repo/.claude/skills/review/SKILL.md": fork("review", "agent: reviewer\n", "REVIEW-TASK"),
    "repo/.claude/skills/sleeper/SKILL.md": fork("sleeper", "", "SLEEP-TASK"),
    "repo/.claude/skills/nest/SKILL.md": fork("nest", "", "NEST-TASK"),
    "repo/.claude/skills/granted/SKILL.md": fork(
      "granted",
      "allowed-tools: Bash(echo:*)\ndisallowed-tools: Write\n",
      "GRANTED-TASK",
    ),
    "repo/.claude/skills/ghost/SKILL.md": fork("ghost", "agent: nobody\n", "GHOST-TASK"),
    "repo/.claude/agents/reviewer.md":
      "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: opus\n---\nYou are REVIEWER-PROMPT.\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function setup(...args: Parameters<typeof startTestModel>): Promise<TestModel> {
  model = await startTestModel(...args);
  return model;
}

/** Forked skills are not "safe" (SPEC §4), so a headless session needs `Skill` allowed. */
const ALLOW = { allowedTools: ["Skill"] };

const MAIN = { agentId: null } as const;
const SUB = { agentId: "*" } as const;

describe("a context: fork skill run through a session", () => {
  it("runs an Explore sub-agent with the skill's model, read-only tools, the listing and the task", async () => {
    const m = await setup([
      toolTurn(
        "Skill",
        { skill: "scan" },
        { id: "toolu_skill", match: { ...MAIN, lastUserTextIncludes: "please scan" } },
      ),
      toolTurn("Read", { path: "notes.txt" }, { match: { ...SUB, lastUserTextIncludes: "SCAN-TASK" } }),
      textTurn("Notes mention alpha.", { ...SUB, hasToolResultFor: "Read" }),
      textTurn("Scanned.", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    const opened = await openTestSession(tree, m, ALLOW);
    const { events, result } = await sendAll(opened, "please scan the notes");

    expect(result).toMatchObject({ cause: "end_turn", text: "Scanned." });
    const subs = forkRequests(m);
    expect(subs).toHaveLength(2);
    const agentId = subs[0]?.headers[AGENT_ID_HEADER] ?? "";
    expect(agentId).not.toBe("");
    for (const request of subs) {
      const body = bodyOf(request);
      expect(request.headers[AGENT_ID_HEADER]).toBe(agentId);
      expect(body.model).toBe("claude-haiku-5-5");
      expect((request.body as { output_config?: unknown }).output_config).toEqual({ effort: "low" });
      expect(body.tools?.map((t) => t.name)).toEqual(["Read", "Grep", "Glob", "LS"]);
      expect(body.system?.[0]?.text).toContain("read-only");
    }
    const texts = firstMessageTexts(subs[0]);
    expect(texts.some((t) => t.startsWith("<system-reminder>") && t.includes("- scan: scan skill"))).toBe(
      true,
    );
    expect(texts.at(-1)).toBe(
      `Base directory for this skill: ${tree.path("repo/.claude/skills/scan")}\n\nSCAN-TASK: read notes.txt\n`,
    );
    expect(resultText(toolResultsOf(subs[1])[0])).toContain("alpha beta gamma");

    const mains = mainRequests(m);
    expect(mains).toHaveLength(2);
    for (const request of mains) {
      expect(Object.keys(request.headers)).not.toContain(AGENT_ID_HEADER);
      expect(bodyOf(request).tools?.map((t) => t.name)).toContain("Skill");
      expect(bodyOf(request).model).toBe("claude-sonnet-5-5");
      expect((request.body as { output_config?: unknown }).output_config).toEqual({ effort: "medium" });
    }
    const [answer] = toolResultsOf(mains[1]);
    expect(answer?.is_error).toBeUndefined();
    expect(resultText(answer)).toBe(
      "<tools-used-before-summary>Read</tools-used-before-summary>\n" +
        'Skill "scan" completed (forked execution).\n\nResult:\nNotes mention alpha.',
    );

    const progress = events.filter(
      (e): e is Extract<AgentEvent, { type: "fork_progress" }> => e.type === "fork_progress",
    );
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.every((p) => p.skill === "scan" && p.agentId === agentId)).toBe(true);
    expect(progress.some((p) => p.lastTool === "Read" && p.toolCalls === 1)).toBe(true);
    expect(Math.max(...progress.map((p) => p.turn))).toBe(2);
    expect(events.some((e) => e.type === "tool_start" && e.agentId === agentId && e.name === "Read")).toBe(
      true,
    );

    // The fork's own transcript is persisted beside the main one, tagged with its agent id.
    const entries = await transcript(tree, opened.session.id);
    const forkMessages = entries.filter((e) => e.type === "message" && e.agentId === agentId);
    expect(forkMessages).toHaveLength(4);
  });

  it("leaves the Tools used line out when the fork used no tools", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "quick" }, { match: MAIN }),
      textTurn("Quick answer.", SUB),
      textTurn("ok", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    await sendAll(await openTestSession(tree, m, ALLOW), "go");

    const [answer] = toolResultsOf(mainRequests(m)[1]);
    expect(answer?.is_error).toBeUndefined();
    expect(resultText(answer)).toBe('Skill "quick" completed (forked execution).\n\nResult:\nQuick answer.');
    // general-purpose: every tool, the Skill tool included.
    expect(bodyOf(forkRequests(m)[0]).tools?.map((t) => t.name)).toEqual([
      "Read",
      "Write",
      "Edit",
      "Bash",
      "Grep",
      "Glob",
      "LS",
      "Skill",
    ]);
  });

  it("reports a fork whose model call fails as an is_error result that says why", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "quick" }, { match: MAIN }),
      { match: SUB, fault: { kind: "http", status: 400, message: "the sub-agent request is malformed" } },
      textTurn("noted", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    const { result } = await sendAll(await openTestSession(tree, m, ALLOW), "go");

    expect(result.cause).toBe("end_turn");
    const [answer] = toolResultsOf(mainRequests(m)[1]);
    expect(answer?.is_error).toBe(true);
    expect(resultText(answer)).toMatch(/^Skill "quick" failed \(forked execution\): .*HTTP 400/);
    expect(resultText(answer)).toContain("the sub-agent request is malformed");
  });

  it("reports a fork that ends without text as an is_error result", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "quick" }, { match: MAIN }),
      { match: SUB, response: { content: [] } },
      textTurn("noted", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    await sendAll(await openTestSession(tree, m, ALLOW), "go");

    const [answer] = toolResultsOf(mainRequests(m)[1]);
    expect(answer?.is_error).toBe(true);
    expect(resultText(answer)).toBe('Skill "quick" ended (forked execution) without a final answer.');
  });

  it("runs a custom agent from .claude/agents with its tools, model and system prompt", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "review" }, { match: MAIN }),
      textTurn("Looks fine.", { ...SUB, systemIncludes: "REVIEWER-PROMPT" }),
      textTurn("ok", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    await sendAll(await openTestSession(tree, m, ALLOW), "review it");

    const [sub] = forkRequests(m);
    const body = bodyOf(sub);
    expect(body.system?.[0]?.text).toBe("You are REVIEWER-PROMPT.");
    expect(body.tools?.map((t) => t.name)).toEqual(["Read", "Grep"]);
    expect(body.model).toBe("claude-opus-5-5");
    expect(firstMessageTexts(sub).at(-1)).toContain("REVIEW-TASK");
    expect(resultText(toolResultsOf(mainRequests(m)[1])[0])).toBe(
      'Skill "review" completed (forked execution).\n\nResult:\nLooks fine.',
    );
  });

  it("runs two forked skills of one assistant message in parallel and returns both results", async () => {
    const latencyMs = 100;
    const m = await setup(
      [
        {
          match: MAIN,
          response: {
            content: [
              { type: "tool_use", id: "toolu_a", name: "Skill", input: { skill: "par-a" } },
              { type: "tool_use", id: "toolu_b", name: "Skill", input: { skill: "par-b" } },
            ],
          },
        },
        textTurn("A result", { ...SUB, lastUserTextIncludes: "PAR-A-TASK" }),
        textTurn("B result", { ...SUB, lastUserTextIncludes: "PAR-B-TASK" }),
        textTurn("both", { ...MAIN, hasToolResultFor: "Skill" }),
      ],
      { server: { latencyMs } },
    );
    await sendAll(await openTestSession(tree, m, ALLOW), "run both");

    const subs = forkRequests(m);
    expect(subs).toHaveLength(2);
    expect(new Set(subs.map((r) => r.headers[AGENT_ID_HEADER])).size).toBe(2);
    // A text response streams 8 SSE events, 7 gaps of `latencyMs`: serial forks would start ≥ 7 × latencyMs apart.
    const [a, b] = subs.map((r) => r.time);
    expect(Math.abs((a ?? 0) - (b ?? 0))).toBeLessThan(4 * latencyMs);
    const last = mainRequests(m)[1];
    expect((last?.time ?? 0) - Math.min(a ?? 0, b ?? 0)).toBeLessThan(2 * 7 * latencyMs);
    const results = toolResultsOf(last);
    expect(results.map((r) => [r.tool_use_id, resultText(r)])).toEqual([
      ["toolu_a", 'Skill "par-a" completed (forked execution).\n\nResult:\nA result'],
      ["toolu_b", 'Skill "par-b" completed (forked execution).\n\nResult:\nB result'],
    ]);
  });

  it("aborting the parent aborts the fork and kills the process its Bash call started", async () => {
    const pidFile = tree.path("sleeper.pid");
    const m = await setup([
      toolTurn("Skill", { skill: "sleeper" }, { match: MAIN }),
      toolTurn("Bash", { command: `echo $$ > '${pidFile}'; exec sleep 30` }, { match: SUB }),
      textTurn("never", SUB),
      textTurn("never", MAIN),
    ]);
    const opened = await openTestSession(tree, m, { allowedTools: ["Skill", "Bash"] });
    const controller = new AbortController();
    let pid = 0;
    const started = Date.now();
    const { result } = await sendAll(opened, "sleep please", {
      signal: controller.signal,
      onEvent: async (event) => {
        if (event.type !== "tool_start" || event.name !== "Bash") return;
        expect(event.agentId).toBeDefined();
        pid = await waitForPid(pidFile);
        expect(isAlive(pid)).toBe(true);
        controller.abort();
      },
    });

    expect(result.cause).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(15_000); // not the 30 s of the sleep
    expect(pid).toBeGreaterThan(0);
    await waitUntil(async () => !isAlive(pid), 5_000);
    expect(isAlive(pid)).toBe(false);
    // Only the two requests before the abort were made.
    expect(m.server.requests).toHaveLength(2);
    // The parent's Skill call still gets its (error) result on disk.
    const entries = await transcript(tree, opened.session.id);
    const last = entries.filter((e) => e.type === "message" && e.agentId === undefined).at(-1);
    expect(last?.type === "message" && last.message.content).toEqual([
      expect.objectContaining({
        type: "tool_result",
        is_error: true,
        content: [{ type: "text", text: 'Skill "sleeper" was aborted (forked execution).' }],
      }),
    ]);
  });

  it("grants the skill's allowed-tools to the fork; its disallowed-tools stay offered (a fixed prefix)", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "granted" }, { match: MAIN }),
      toolTurn(
        "Bash",
        { command: "echo granted-ok" },
        { match: { ...SUB, lastUserTextIncludes: "GRANTED-TASK" } },
      ),
      textTurn("ran it", { ...SUB, hasToolResultFor: "Bash" }),
      textTurn("ok", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    // Headless: Bash would be denied without the skill's grant.
    await sendAll(await openTestSession(tree, m, ALLOW), "go");

    const subs = forkRequests(m);
    expect(bodyOf(subs[0]).tools?.map((t) => t.name)).toContain("Write");
    expect(JSON.stringify(bodyOf(subs[1]).tools)).toBe(JSON.stringify(bodyOf(subs[0]).tools));
    const [bash] = toolResultsOf(subs[1]);
    expect(resultText(bash)).toContain("granted-ok");
    expect(bash?.is_error).toBeUndefined();
  });

  it("a fork naming an unknown agent type is an is_error result listing the known ones", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "ghost" }, { match: MAIN }),
      textTurn("ok", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    await sendAll(await openTestSession(tree, m, ALLOW), "go");

    expect(forkRequests(m)).toHaveLength(0);
    const [answer] = toolResultsOf(mainRequests(m)[1]);
    expect(answer?.is_error).toBe(true);
    expect(resultText(answer)).toBe(
      'Skill "ghost" names agent type "nobody", which does not exist. Known: general-purpose, Explore, Plan, reviewer.',
    );
  });

  it("a fork that fails to persist its transcript is an is_error result, and the parent turn goes on", async () => {
    const files = createFileTranscriptStore(tree.path("home/.skillwright/sessions"));
    const store: TranscriptStore = {
      ...files,
      async append(id, entries) {
        if (entries.some((e) => e.type === "message" && e.agentId !== undefined))
          throw new Error("disk full");
        return files.append(id, entries);
      },
    };
    const m = await setup([
      toolTurn("Skill", { skill: "quick" }, { match: MAIN }),
      textTurn("never", SUB),
      textTurn("carried on", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    const { result } = await sendAll(await openTestSession(tree, m, { ...ALLOW, store }), "go");

    expect(result).toMatchObject({ cause: "end_turn", text: "carried on" });
    const [answer] = toolResultsOf(mainRequests(m)[1]);
    expect(answer?.is_error).toBe(true);
    expect(resultText(answer)).toBe('Skill "quick" failed (forked execution): disk full');
  });

  it("nests forks at most 3 deep", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "nest" }, { match: MAIN }),
      {
        ...toolTurn("Skill", { skill: "nest" }, { match: { ...SUB, lastUserTextIncludes: "NEST-TASK" } }),
        repeat: true,
      },
      textTurn("bottom", { ...SUB, toolResultIncludes: "nest at most" }),
      { ...textTurn("up", { ...SUB, toolResultIncludes: "completed (forked execution)" }), repeat: true },
      textTurn("top", { ...MAIN, hasToolResultFor: "Skill" }),
    ]);
    const { result } = await sendAll(await openTestSession(tree, m, ALLOW), "nest");

    expect(result).toMatchObject({ cause: "end_turn", text: "top" });
    const subs = forkRequests(m);
    const agents = [...new Set(subs.map((r) => r.headers[AGENT_ID_HEADER]))];
    expect(agents).toHaveLength(3);
    const refused = subs.flatMap((r) => toolResultsOf(r)).find((r) => r.is_error === true);
    expect(resultText(refused)).toBe(
      "<tool_use_error>Skill nest runs as a fork, and forks nest at most 3 deep.</tool_use_error>",
    );
    expect(resultText(toolResultsOf(mainRequests(m)[1])[0])).toBe(
      "<tools-used-before-summary>Skill</tools-used-before-summary>\n" +
        'Skill "nest" completed (forked execution).\n\nResult:\nup',
    );
  });

  it("a user-typed /fork-skill runs the fork directly and answers with its final text", async () => {
    const m = await setup([textTurn("Typed fork answer.", SUB)]);
    const opened = await openTestSession(tree, m, ALLOW);
    const { result } = await sendAll(opened, "/quick now");

    expect(result).toMatchObject({ cause: "end_turn", text: "Typed fork answer." });
    expect(mainRequests(m)).toHaveLength(0);
    expect(firstMessageTexts(forkRequests(m)[0]).at(-1)).toContain("QUICK-TASK");
    const assistant = opened.session.messages().at(-1);
    expect(assistant).toEqual({ role: "assistant", content: [{ type: "text", text: "Typed fork answer." }] });
  });
});
