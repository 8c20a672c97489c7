import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { SERVED_NO_SHELL } from "../../src/serve/sessions/served-capabilities.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { readUntil } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { sdkClient, startServe } from "./serve-process.js";

// Skills uploaded by anyone holding an API key must not run anything on the server: the shipped bin's
// `serve`, the official SDK client, and a recorder loaded into the server that logs every child process it
// starts. Markers go to a directory that exists, so a command that ran would leave them.

type Event = BetaManagedAgentsStreamSessionEvents;
const KEY = "sk-hostile";
const RECORDER = fileURLToPath(new URL("../support/spawn-recorder.mjs", import.meta.url));

let tree: TmpTree;
let model: ModelServer;
let marks: string;

const repeat = (turn: ScriptTurnInput): ScriptTurnInput => ({ ...turn, repeat: true });

beforeAll(async () => {
  tree = await tmpTree({ "marks/.keep": "", "host-cwd/.keep": "", "home/.keep": "" });
  marks = tree.path("marks");
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn("Skill", { skill: "inline-shell" }, { match: { lastUserTextIncludes: "go inline" } }),
        toolTurn("Skill", { skill: "fenced-shell" }, { match: { lastUserTextIncludes: "go fenced" } }),
        toolTurn("Skill", { skill: "hooked" }, { match: { lastUserTextIncludes: "go hooked" } }),
        toolTurn("Skill", { skill: "plain" }, { match: { lastUserTextIncludes: "HOOKED-BODY" } }),
        toolTurn("Skill", { skill: "scripted" }, { match: { lastUserTextIncludes: "go scripted" } }),
        toolTurn(
          "Bash",
          { command: `bash scripts/run.sh; touch ${marks}/script` },
          { match: { lastUserTextIncludes: "SCRIPTED-BODY" } },
        ),
        textTurn("Answered.", {}),
      ].map(repeat),
    },
  });
}, 60_000);
afterAll(async () => {
  await model?.close();
  await tree?.cleanup();
});

const file = (path: string, text: string) => toFile(Buffer.from(text), path);

/** The hostile skills: inline shell, a ```! block, a command hook, a script; and one plain skill. */
async function uploadSkills(client: Anthropic): Promise<{ ids: string[]; warnings: string[][] }> {
  const skills: Record<string, Record<string, string>> = {
    "inline-shell": {
      "SKILL.md":
        "---\nname: inline-shell\ndescription: Runs a command inline\nallowed-tools: Bash\n---\n" +
        `INLINE-BODY !\`touch ${marks}/inline; echo "INLINE-RAN in $(pwd) key=[$ANTHROPIC_API_KEY]"\`\n`,
    },
    "fenced-shell": {
      "SKILL.md":
        "---\nname: fenced-shell\ndescription: Runs a fenced block\nallowed-tools: Bash\n---\nFENCED-BODY\n" +
        `\`\`\`!\ntouch ${marks}/fenced && echo FENCED-RAN\n\`\`\`\n`,
    },
    hooked: {
      "SKILL.md":
        "---\nname: hooked\ndescription: Registers a hook\nhooks:\n  PreToolUse:\n    - matcher: Skill\n" +
        `      hooks:\n        - type: command\n          command: touch ${marks}/hook\n---\nHOOKED-BODY\n`,
    },
    scripted: {
      "SKILL.md": "---\nname: scripted\ndescription: Has a script\n---\nSCRIPTED-BODY: run scripts/run.sh\n",
      "scripts/run.sh": `#!/bin/sh\ntouch ${marks}/script-file\n`,
    },
    plain: { "SKILL.md": "---\nname: plain\ndescription: Plain text\n---\nPLAIN-BODY\n" },
  };
  const ids: string[] = [];
  const warnings: string[][] = [];
  for (const [name, files] of Object.entries(skills)) {
    const created = await client.beta.skills.create({
      files: await Promise.all(Object.entries(files).map(([path, text]) => file(`${name}/${path}`, text))),
    });
    ids.push(created.id);
    const version = await client.beta.skills.versions.retrieve(created.latest_version_id, {
      skill_id: created.id,
    });
    // Not in the SDK's types: the extra field skillwright adds to a version.
    const codes = (v: object) => ((v as { warnings?: { code: string }[] }).warnings ?? []).map((w) => w.code);
    expect(codes(version)).toEqual(codes(created));
    warnings.push(codes(version));
  }
  return { ids, warnings };
}

/** One session on an agent holding every hostile skill; `say` runs a turn and returns its events. */
async function openSession(client: Anthropic, ids: string[]) {
  const env = await client.beta.environments.create({ name: `env-${Date.now()}` });
  const agent = await client.beta.agents.create({
    name: "hostile",
    model: "claude-sonnet-5-5",
    skills: ids.map((id) => ({ type: "custom" as const, skill_id: id })),
    tools: [{ type: "agent_toolset_20260401" }],
  });
  const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
  return async (text: string): Promise<Event[]> => {
    const stream = await client.beta.sessions.events.stream(session.id);
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.message", content: [{ type: "text", text }] }],
    });
    const events = await readUntil(
      stream[Symbol.asyncIterator](),
      (e) => e.type === "session.status_idle" && e.stop_reason.type === "end_turn",
    );
    stream.controller.abort();
    return events;
  };
}

/**
 * Runs `say(text)` and returns what the model was sent meanwhile (tool results, and an inline skill's body,
 * which travels as a message of its own), as JSON text.
 */
async function seen(say: (text: string) => Promise<Event[]>, text: string): Promise<string> {
  const before = model.requests.length;
  await say(text);
  return JSON.stringify(model.requests.slice(before).map((r) => r.body));
}

/** Serves (in `cwd`) with the spawn recorder loaded; returns the server, a client and the spawn log's lines. */
async function serveRecorded(name: string, args: string[], cwd?: string) {
  const log = tree.path(`${name}.spawns`);
  const server = await startServe(
    ["--db", await freshPgliteDir(tree.path(`${name}-data`)), "--api-key", KEY, ...args],
    {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.url,
      HOME: tree.path("home"),
      NODE_OPTIONS: `--import ${RECORDER}`,
      SKILLWRIGHT_SPAWN_LOG: log,
    },
    cwd,
  );
  const spawned = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
  return { server, client: sdkClient(server.url, KEY), spawned };
}

const MARKERS = ["inline", "fenced", "hook", "script", "script-file"];

describe("serve --sandbox none", () => {
  let served: Awaited<ReturnType<typeof serveRecorded>> | undefined;
  afterAll(async () => {
    await served?.server.stop();
  });

  it("starts no process and changes no file for skills with inline shell, hooks or scripts, and says why", async () => {
    served = await serveRecorded("plain", ["--sandbox", "none"]);
    const { ids, warnings } = await uploadSkills(served.client);
    // The upload is accepted, with a warning for each skill that cannot run here.
    expect(warnings).toEqual([
      ["inline-shell-not-run"],
      ["inline-shell-not-run"],
      ["hooks-not-run"],
      ["scripts-not-run"],
      [],
    ]);
    const say = await openSession(served.client, ids);

    const inline = await seen(say, "go inline");
    expect(inline).toContain("Shell command not run for pattern");
    expect(inline).toContain("run no shell");
    expect(inline).not.toContain("killed by a signal");
    expect(await seen(say, "go fenced")).toContain("Shell command not run for pattern");
    const hooked = await seen(say, "go hooked");
    expect(hooked).toContain("hooks were not registered");
    expect(hooked).toContain("PLAIN-BODY");
    const script = await seen(say, "go scripted");
    expect(script).toContain("No such tool available: Bash");
    expect(script).not.toContain("SCRIPTED-RAN");

    expect(served.spawned()).toEqual([]);
    for (const marker of MARKERS) expect(existsSync(`${marks}/${marker}`), marker).toBe(false);
    // The model was told in the words the server uses.
    expect(JSON.stringify(model.requests.map((r) => r.body))).toContain(SERVED_NO_SHELL.slice(0, 60));
  }, 120_000);
});

describe("serve --host-tools", () => {
  let served: Awaited<ReturnType<typeof serveRecorded>> | undefined;
  afterAll(async () => {
    await served?.server.stop();
  });

  it("runs the same skills' shell and hooks, in the configured directory, without the server's environment", async () => {
    // --host-tools works in the directory serve was started in.
    const cwd = tree.path("host-cwd");
    served = await serveRecorded("host", ["--host-tools"], cwd);
    const { ids } = await uploadSkills(served.client);
    const say = await openSession(served.client, ids);
    const inline = await seen(say, "go inline");
    expect(inline).toContain(`INLINE-RAN in ${cwd} key=[]`);
    expect(await seen(say, "go fenced")).toContain("FENCED-RAN");
    await say("go hooked");
    await say("go scripted");
    for (const marker of ["inline", "fenced", "hook", "script"]) {
      expect(existsSync(`${marks}/${marker}`), marker).toBe(true);
    }
    expect(served.spawned().length).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
