/**
 * Issue #48 item 3's done-when: `/context`, `stats`, the library call and the served stats agree on a session
 * with an inline skill, a fork, an expired skill and a compaction. One served session (real SDK client, real
 * PGlite store, the scripted model) compacts on its own when a response says the window is nearly full; then the
 * same numbers are read five ways over its one stored transcript: the served route, the library function, the
 * built bin's `stats --session` and the interactive `/context` (both over that transcript written where the CLI
 * keeps transcripts), and the `skillwright.skill.context_tokens` gauges the server's telemetry exported.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { PassThrough } from "node:stream";
import { toFile } from "@anthropic-ai/sdk";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import { interactiveCommand } from "../../src/cli/interactive.js";
import type { CliIo } from "../../src/cli/io.js";
import { createEngine } from "../../src/engine/engine.js";
import { createDbTranscripts } from "../../src/serve/sessions/db-transcripts.js";
import { estimateTokens } from "../../src/session/compaction/tokens.js";
import {
  contextUsageLines,
  type SkillContextUsage,
  skillContextUsage,
} from "../../src/session/skill-context/context-usage.js";
import { expiredSkillStub } from "../../src/session/skill-context/expiry.js";
import { createOtelTelemetry } from "../../src/telemetry/otel.js";
import type { Telemetry } from "../../src/telemetry/telemetry.js";
import { assertBuilt, BIN } from "../cli/run-cli.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type Export, startReceiver } from "../support/otlp-receiver.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, type StreamEvent, userMessage } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const KEEPER_BODY = `KEEPER-BODY\n${"Keep the changelog tidy.\n".repeat(20)}`;
const EXPIRING_BODY = `EXPIRING-BODY\n${"Check the flags twice.\n".repeat(10)}`;
const FORKER_TASK = "FORKER-TASK: look around and report.";
/** What the scripted model says the prompt held: past 80% of claude-sonnet-4-6's 1M window, so it compacts. */
const NEARLY_FULL = { input_tokens: 900_000, output_tokens: 10 };

/** The last value of each `skillwright.skill.context_tokens` gauge the exports carry, by `skill/part`. */
function gaugeValues(exports: readonly Export[]): Map<string, number> {
  interface Point {
    attributes: { key: string; value: { stringValue?: string } }[];
    asInt?: string | number;
    asDouble?: number;
  }
  interface Body {
    resourceMetrics: { scopeMetrics: { metrics: { name: string; gauge?: { dataPoints: Point[] } }[] }[] }[];
  }
  const values = new Map<string, number>();
  for (const e of exports.filter((x) => x.path === "/v1/metrics")) {
    const body = JSON.parse(e.body.toString("utf8")) as Body;
    for (const metric of body.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))) {
      if (metric.name !== "skillwright.skill.context_tokens") continue;
      for (const point of metric.gauge?.dataPoints ?? []) {
        const attr = (key: string) => point.attributes.find((a) => a.key === key)?.value.stringValue;
        values.set(`${attr("skill.name")}/${attr("context.part")}`, Number(point.asInt ?? point.asDouble));
      }
    }
  }
  return values;
}

/** The usage's parts as the gauges name them, zeros left out (a gauge at 0 says the same as none). */
function usageValues(usage: SkillContextUsage): Map<string, number> {
  const parts = ["listing", "expansions", "reattached", "expiredStubs", "forks"] as const;
  return new Map(
    usage.skills.flatMap((s) =>
      parts.flatMap((part) => (s[part] === 0 ? [] : [[`${s.name}/${part}`, s[part]] as const])),
    ),
  );
}

/** The gauges' values with those at 0 left out. */
function nonZero(values: Map<string, number>): Map<string, number> {
  return new Map([...values].filter(([, v]) => v !== 0));
}

let served: ServedApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let otel: Telemetry;
let tree: TmpTree;
/** Resolved when the telemetry has been told the context usage after the fourth turn. */
let toldAfterFourTurns: Promise<void>;

beforeAll(async () => {
  receiver = await startReceiver();
  otel = createOtelTelemetry(
    {
      metrics: { url: `${receiver.url}/v1/metrics`, protocol: "http/json", headers: {} },
      resource: {},
      // Exported when the telemetry shuts down, not on a clock.
      metricIntervalMs: 3_600_000,
      logPrompts: false,
    },
    "test",
  );
  // The server's telemetry is the real OpenTelemetry one; this only says when it was told (after each send and
  // each drain of a turn), so the test waits for the fourth turn's numbers rather than for a time.
  let told = 0;
  let reached: () => void = () => {};
  toldAfterFourTurns = new Promise((resolve) => {
    reached = resolve;
  });
  const telemetry: Telemetry = {
    turn: (info) => otel.turn(info),
    contextUsage(sessionId, usage) {
      otel.contextUsage?.(sessionId, usage);
      told += 1;
      if (told === 8) reached();
    },
    shutdown: () => otel.shutdown(),
  };
  served = await startServedApp({
    runner: { telemetry },
    modelTurns: [
      textTurn("FORK-REPORT: all fine.", { agentId: "*" }),
      textTurn("SUMMARY of the first turn", { agentId: null, systemIncludes: "You summarize conversations" }),
      toolTurn("Skill", { skill: "keeper" }, { match: { agentId: null, lastUserTextIncludes: "one" } }),
      toolTurn("Skill", { skill: "forker" }, { match: { agentId: null, hasToolResultFor: "Skill" } }),
      {
        match: { agentId: null, hasToolResultFor: "Skill" },
        response: { content: [{ type: "text", text: "turn one done" }], usage: NEARLY_FULL },
      },
      toolTurn("Skill", { skill: "expiring" }, { match: { agentId: null, lastUserTextIncludes: "two" } }),
      textTurn("turn two done", { agentId: null, hasToolResultFor: "Skill" }),
      textTurn("turn three done", { agentId: null, lastUserTextIncludes: "three" }),
      textTurn("turn four done", { agentId: null, lastUserTextIncludes: "four" }),
    ],
  });
  tree = await tmpTree({ "project/.keep": "", "home/.keep": "" });
}, 60_000);

afterAll(async () => {
  await served?.close();
  await otel?.shutdown();
  await receiver?.close();
  await tree?.cleanup();
});

const skillFile = async (name: string, meta: string, body: string) =>
  toFile(
    Buffer.from(`---\nname: ${name}\ndescription: ${name} skill\n${meta}---\n${body}\n`),
    `${name}/SKILL.md`,
  );

/** The interactive mode in-process over `tree`, resuming session `id`, with `/context` typed; what it printed. */
async function typedContext(id: string): Promise<string> {
  let out = "";
  const io: CliIo = {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      out += text;
    },
    env: {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: served.model?.url ?? "",
      SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
    },
    cwd: tree.path("project"),
    home: tree.path("home"),
    bundledDir: tree.path("no-bundled"),
  };
  const parsed = parseCliArgs(["--resume", id]);
  if (!parsed.ok) throw new Error(parsed.message);
  const engine = createEngine({ cwd: io.cwd, home: io.home, env: io.env });
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const done = interactiveCommand(engine, io, parsed.args, { input, output });
  input.end("/context\n");
  const code = await done;
  await engine.close();
  expect(code, out).toBe(0);
  return out;
}

describe("per-skill context accounting, four ways over one served session", () => {
  it("the served route, the library, stats --session, /context and the telemetry gauges agree", async () => {
    const client = served.client();
    const ids = [];
    for (const [name, meta, body] of [
      ["keeper", "", KEEPER_BODY],
      ["forker", "context: fork\n", FORKER_TASK],
      ["expiring", "ttl-turns: 1\n", EXPIRING_BODY],
    ] as const) {
      ids.push((await client.beta.skills.create({ files: [await skillFile(name, meta, body)] })).id);
    }
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({
      name: "lead",
      model: "claude-sonnet-4-6",
      skills: ids.map((id) => ({ type: "custom" as const, skill_id: id })),
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    const seen: string[] = [];
    for (const prompt of ["one", "two", "three", "four"]) {
      const stream = await client.beta.sessions.events.stream(session.id);
      try {
        await client.beta.sessions.events.send(session.id, userMessage(prompt));
        const events = await readUntil(
          stream[Symbol.asyncIterator](),
          (e: StreamEvent) => e.type === "session.status_idle",
        );
        seen.push(...events.map((e) => `${prompt}:${e.type}`));
      } finally {
        stream.controller.abort();
      }
    }
    // The first turn's answer said the window was nearly full: the session compacted after it, told its
    // client, and recorded it in its transcript as a CLI session does.
    expect(seen).toContain("one:agent.thread_context_compacted");
    expect(seen.filter((e) => e.endsWith(":agent.thread_context_compacted"))).toHaveLength(1);
    const entries = await createDbTranscripts(served.store.db, session.id).read(session.id);
    expect(entries.filter((e) => e.type === "compaction")).toEqual([
      expect.objectContaining({ summary: "SUMMARY of the first turn" }),
    ]);

    // 1. The served route.
    const response = await fetch(`${served.url}/v1/skillwright/sessions/${session.id}/context`, {
      headers: { "x-api-key": "k" },
    });
    expect(response.status).toBe(200);
    const { session_id, ...routed } = (await response.json()) as SkillContextUsage & { session_id: string };
    expect(session_id).toBe(session.id);
    const row = (name: string) => {
      const found = routed.skills.find((s) => s.name === name);
      if (found === undefined) throw new Error(`no row for ${name}: ${JSON.stringify(routed)}`);
      return found;
    };
    // Each case where the numbers must show it: keeper re-attached after the compaction, expiring stubbed,
    // forker's fork counted apart and its task not brought into the main conversation.
    expect(row("keeper").reattached).toBeGreaterThan(estimateTokens(KEEPER_BODY));
    expect(row("keeper").expansions).toBe(0);
    expect(row("keeper").listing).toBeGreaterThan(0);
    expect(row("expiring").expansions).toBe(0);
    expect(row("expiring").expiredStubs).toBe(estimateTokens(expiredSkillStub("expiring")));
    expect(row("forker").forks).toBeGreaterThan(0);
    expect(row("forker").reattached).toBe(0);

    // 2. The library function over the stored transcript.
    expect(skillContextUsage(entries)).toEqual(routed);

    // 3. `skillwright stats --session` (the built bin) over the same transcript, where the CLI keeps its own.
    const sessions = tree.path("home/.skillwright/sessions");
    await mkdir(sessions, { recursive: true });
    await writeFile(
      `${sessions}/${session.id}.jsonl`,
      `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`,
      { mode: 0o600 },
    );
    assertBuilt();
    const bin = (json: boolean) =>
      execa(
        process.execPath,
        [BIN, "stats", "--session", session.id, ...(json ? ["--json"] : []), "--home", tree.path("home")],
        {
          cwd: tree.path("project"),
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
          extendEnv: false,
          reject: false,
        },
      );
    const stats = await bin(true);
    expect(stats.exitCode, String(stats.stderr)).toBe(0);
    expect(JSON.parse(String(stats.stdout))).toEqual({ session: session.id, ...routed });
    const table = await bin(false);
    expect(String(table.stdout)).toBe(contextUsageLines(routed).join("\n"));

    // 4. `/context` in the interactive mode, resuming that transcript.
    expect(await typedContext(session.id)).toContain(`${contextUsageLines(routed).join("\n")}\n`);

    // 5. The gauges the server's telemetry exported after the last turn: every part the route counts, at its
    // value, and none left at a value it no longer has.
    await toldAfterFourTurns;
    await otel.shutdown();
    const gauges = gaugeValues(receiver.exports);
    expect(nonZero(gauges)).toEqual(usageValues(routed));
    // The one part the session had after a turn and lost since: expiring's expansion (sent in turns two and
    // three, a stub from four) was set back to 0. keeper's never counted as an expansion after a turn: the
    // compaction came within turn one, and the numbers read after it include what the turn recorded.
    expect([...gauges].filter(([, v]) => v === 0).map(([k]) => k)).toEqual(["expiring/expansions"]);
  }, 240_000);
});
