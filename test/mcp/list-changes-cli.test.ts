/**
 * Issue 27.9 through the shipped bin: a headless multi-turn session (`-p --input-format stream-json`) whose MCP
 * server publishes a skill between two user turns. The second turn's first request carries the new skill as a
 * listing delta and the model loads it. On protocol 2026-07-28 (the official SDK v2 server over streamable HTTP,
 * modern only) the change comes on the `subscriptions/listen` stream; on 2025-11-25 (the same SDK over stdio) it
 * comes unasked. The test waits for the server to be asked `skills/list` again (the session's rediscovery),
 * never for time.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { lastUser, type RequestBody, resultText, textBlocks, toolResults } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { waitForPid } from "../support/processes.js";
import {
  copyServed,
  FIXTURE_SKILLS,
  type HttpSkillsServer,
  SKILLS_SERVER,
  startHttpSkillsServer,
} from "./support.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));
const skills = FIXTURE_SKILLS;

/** One way to reach the server and make it publish `skills.extra`. */
interface Served {
  name: string;
  config: Record<string, unknown>;
  /** How many requests of `method` the server has had. */
  asked(method: string): Promise<number>;
  publish(): Promise<void>;
  stop(): Promise<void>;
}

let root: string;
let model: TestModel | undefined;
let served: Served | undefined;
let stopBin: (() => void) | undefined;
afterEach(async () => {
  stopBin?.();
  stopBin = undefined;
  await model?.close();
  await served?.stop();
  model = undefined;
  served = undefined;
  await rm(root, { recursive: true, force: true });
});

async function modern(): Promise<Served> {
  const server: HttpSkillsServer = await startHttpSkillsServer([
    ...["--root", copyServed(skills, root)],
    ...["--extra", join(skills.dir, skills.extra)],
  ]);
  return {
    name: "modern",
    config: { type: "http", url: server.url },
    asked: async (method) => (await server.stats()).methods[method] ?? 0,
    publish: async () => void (await server.control("publish")),
    stop: () => server.stop(),
  };
}

async function legacy(): Promise<Served> {
  const [pidFile, log] = [join(root, "server.pid"), join(root, "server.log")];
  writeFileSync(log, "");
  const args = [SKILLS_SERVER, "--root", copyServed(skills, root), "--extra", join(skills.dir, skills.extra)];
  return {
    name: "legacy",
    config: { command: process.execPath, args: [...args, "--pid-file", pidFile, "--log", log] },
    asked: async (method) =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter((m) => m === method).length,
    publish: async () => void process.kill(await waitForPid(pidFile), "SIGUSR1"),
    stop: async () => undefined,
  };
}

/** Runs the two turns with a publish between them; resolves with how many listen streams the server saw. */
async function publishBetweenTurns(start: () => Promise<Served>): Promise<number> {
  root = await mkdtemp(join(tmpdir(), "skillwright-listen-cli-"));
  served = await start();
  const extra = `mcp__${served.name}__${skills.extra}`;
  model = await startTestModel([
    textTurn("First answer.", { lastUserTextIncludes: "question one" }),
    toolTurn("Skill", { skill: extra }, { match: { lastUserTextIncludes: "question two" } }),
    textTurn("Loaded it."),
  ]);
  const config = JSON.stringify({ mcpServers: { [served.name]: served.config } });
  const run = execa(
    process.execPath,
    [
      BIN,
      ...["-p", "--input-format", "stream-json", "--output-format", "stream-json"],
      ...["--mcp-config", config, "--allowedTools", `Skill(${extra})`],
      ...["--cwd", root, "--home", root],
    ],
    {
      env: {
        SKILLWRIGHT_MANAGED_DIR: join(root, "managed"),
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
      },
      stdin: "pipe",
      reject: false,
      timeout: 60_000,
    },
  );
  stopBin = () => run.kill();
  const lines = createInterface({ input: run.stdout })[Symbol.asyncIterator]();
  const nextResult = async () => {
    for (let line = await lines.next(); !line.done; line = await lines.next()) {
      const parsed = JSON.parse(line.value) as { type: string; result?: string };
      if (parsed.type === "result") return parsed.result;
    }
    throw new Error(`the bin ended before a result: ${(await run).stderr}`);
  };
  const say = (text: string) =>
    run.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: text } })}\n`);

  say("question one");
  expect(await nextResult()).toBe("First answer.");
  const listed = await served.asked("skills/list");
  await served.publish();
  // The session rediscovers on the notification: the server is asked for its skills again.
  await expect.poll(() => served?.asked("skills/list"), { timeout: 10_000 }).toBeGreaterThan(listed);
  say("question two");
  expect(await nextResult()).toBe("Loaded it.");
  run.stdin.end();
  const exit = await run;
  expect(exit.exitCode, exit.stderr).toBe(0);

  const bodies = (model?.server.requests ?? [])
    .filter((r) => r.path === "/v1/messages")
    .map((r) => r.body as RequestBody);
  expect(bodies).toHaveLength(3);
  const first = textBlocks(lastUser(bodies[0] as RequestBody).content).join("\n");
  expect(first).not.toContain(extra);
  const delta = textBlocks(lastUser(bodies[1] as RequestBody).content).find((t) => t.includes(extra)) ?? "";
  expect(delta).toMatch(
    new RegExp(
      `^<system-reminder>\\nThe following skills are available for use with the Skill tool:\\n\\n- ${extra}: Drafts release notes`,
    ),
  );
  const [launch] = toolResults(bodies[2] as RequestBody);
  expect(resultText(launch)).toBe(`Launching skill: ${extra}`);
  return served.asked("subscriptions/listen");
}

describe("a skill published between two turns reaches the model (shipped bin, stream-json)", () => {
  it("protocol 2026-07-28: the change arrives on the subscriptions/listen stream", async () => {
    expect(await publishBetweenTurns(modern)).toBe(1);
  });

  it("protocol 2025-11-25: the change arrives as an unasked notification", async () => {
    expect(await publishBetweenTurns(legacy)).toBe(0);
  });
});
