#!/usr/bin/env node
// `npm run demo`: one real skillwright session on examples/project, printing what the model saw at each step.
//
// The example project is copied to a temp dir and made a git repo with one staged change, so the skills' inline
// `git diff --cached` has something to show. The session runs through the shipped bin (dist/bin/main.js,
// `-p … --output-format stream-json`) with a temp home. Offline (the default, or `--offline`), the model is the
// scripted Messages API server of the built library's testing entry (dist/testing.js, `skillwright/testing`:
// `startModelServer`), playing the turns below:
// review src/index.ts with the forked `code-review` skill, load the inline `commit-message` skill (whose
// PreToolUse hook then refuses `git commit`), and answer. With ANTHROPIC_API_KEY set (and no `--offline`), the
// same prompt goes to the real model instead.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist/bin/main.js");
const LIBRARY = join(ROOT, "dist/testing.js");
const EXAMPLE = join(ROOT, "examples/project");
const PROMPT =
  "Review src/index.ts with the code-review skill, then write a commit message for the staged changes and commit them.";
/** The user's approval of the two project skills the demo uses (a cloned repo's skills run only when approved). */
const APPROVED = "Skill(code-review),Skill(commit-message)";
const MAX_LINES = 14;

/** The scripted model: what a model would do with PROMPT on examples/project. */
const SCRIPT = {
  turns: [
    {
      label: "main: review first, in a fork",
      match: { agentId: null, lastUserTextIncludes: "code-review skill" },
      response: {
        content: [
          { type: "text", text: "I'll review the file first, then write the commit message." },
          { type: "tool_use", name: "Skill", input: { skill: "code-review", args: "src/index.ts" } },
        ],
      },
    },
    {
      label: "fork: answer after looking",
      match: { agentId: "*", hasToolResultFor: "Glob" },
      response: {
        content: [
          {
            type: "text",
            text: "Verdict: merge after fixes.\n- src/index.ts:27 — countByTag has no test — **low**: add one for an empty list.",
          },
        ],
      },
    },
    {
      label: "fork: look at the sources",
      match: { agentId: "*" },
      response: { content: [{ type: "tool_use", name: "Glob", input: { pattern: "src/**/*.ts" } }] },
    },
    {
      label: "main: load the commit-message skill",
      match: { agentId: null, toolResultIncludes: "completed (forked execution)" },
      response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "commit-message" } }] },
    },
    {
      label: "main: try to commit",
      match: { agentId: null, toolResultIncludes: "Launching skill: commit-message" },
      response: {
        content: [
          {
            type: "tool_use",
            name: "Bash",
            input: {
              command: "git commit -m 'feat(notes): add countByTag'",
              description: "Commit the staged changes",
            },
          },
        ],
      },
    },
    {
      label: "main: answer",
      match: { agentId: null, hasToolResultFor: "Bash" },
      response: {
        content: [
          {
            type: "text",
            text: "Here is the message for the staged change:\n\n```\nfeat(notes): add countByTag\n```\n\nThe review found one low-priority gap (no test for an empty list). Say \"commit\" and I will run git commit.",
          },
        ],
      },
    },
  ],
};

function fail(message) {
  process.stderr.write(`demo: ${message}\n`);
  process.exit(1);
}

/** Runs a command to its end; resolves with its exit code and output. */
function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

async function git(cwd, ...args) {
  const config = ["-c", "user.name=demo", "-c", "user.email=demo@example.com", "-c", "commit.gpgsign=false"];
  const result = await run("git", [...config, ...args], { cwd });
  if (result.code !== 0) fail(`git ${args.join(" ")} failed: ${result.stderr}`);
}

/** The example project in a temp git repo: one commit, then one staged change. */
async function prepareProject(root) {
  const project = join(root, "project");
  cpSync(EXAMPLE, project, { recursive: true });
  await git(project, "init", "-q");
  await git(project, "add", "-A");
  await git(project, "commit", "-q", "-m", "Initial notes-demo");
  const index = join(project, "src/index.ts");
  writeFileSync(
    index,
    `${readFileSync(index, "utf8")}
/** How many notes carry each tag, in first-seen order. */
export function countByTag(notes: readonly Note[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const note of notes) for (const tag of note.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return counts;
}
`,
  );
  await git(project, "add", "src/index.ts");
  return project;
}

function indent(text, prefix, maxLines = MAX_LINES) {
  const lines = text.replace(/\n+$/, "").split("\n");
  const shown = lines.slice(0, maxLines).map((line) => `${prefix}${line}`);
  if (lines.length > maxLines) shown.push(`${prefix}… (${lines.length - maxLines} more lines)`);
  return shown.join("\n");
}

function blockText(block) {
  if (typeof block.content === "string") return block.content;
  if (Array.isArray(block.content)) return block.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  return block.text ?? "";
}

/** Prints the session: the first user message from the transcript, then each message of the stream. */
function narrate(lines, firstMessage) {
  const out = [];
  const say = (text) => out.push(text);
  const tools = new Map();
  if (firstMessage !== undefined) {
    for (const block of firstMessage.content) {
      if (block.type !== "text") continue;
      if (block.text.includes("<system-reminder>")) {
        say("▶ The model saw the skill listing (a <system-reminder> before the prompt):");
        say(indent(block.text, "    "));
      } else say(`▶ The model saw the prompt: ${block.text}`);
    }
  }
  for (const record of lines) {
    const fork = record.agent_id === undefined ? "" : "    [fork] ";
    const who = fork === "" ? "The model" : "The sub-agent";
    if (record.type === "assistant") {
      for (const block of record.message.content) {
        if (block.type === "text") say(`${fork}◀ ${who} said:\n${indent(block.text, `${fork}    `)}`);
        if (block.type === "tool_use") {
          tools.set(block.id, block);
          say(`${fork}◀ ${who} called ${block.name} ${JSON.stringify(block.input)}`);
        }
      }
    } else if (record.type === "user") {
      for (const block of record.message.content) {
        if (block.type === "tool_result") {
          const call = tools.get(block.tool_use_id);
          const text = blockText(block);
          const what =
            call?.name !== "Skill"
              ? `the ${call?.name ?? "tool"} result`
              : text.includes("(forked execution)")
                ? "the fork's result (Skill tool result)"
                : "the Skill tool result";
          const hook = text.includes("hook blocked") ? " — the skill's hook at work" : "";
          say(`${fork}▶ ${who} saw ${what}${block.is_error ? " (an error)" : ""}${hook}:`);
          say(indent(text, `${fork}    `));
        } else if (block.type === "text") {
          const what = block.text.startsWith("Base directory for this skill:")
            ? "the expanded skill (inline shell already run)"
            : block.text.includes("<system-reminder>")
              ? "a reminder"
              : "text";
          say(`${fork}▶ ${who} saw ${what}:`);
          say(indent(block.text, `${fork}    `));
        }
      }
    } else if (record.type === "event" && record.event.type === "skill_invoked") {
      say(`  · skill ${record.event.name} invoked (${record.event.mode})`);
    } else if (record.type === "result") {
      say(`■ Result: ${record.subtype}, ${record.num_turns} model turns, session ${record.session_id}`);
    }
  }
  return out.join("\n");
}

async function main() {
  for (const [path, what] of [
    [BIN, "the bin"],
    [LIBRARY, "the library"],
  ])
    if (!existsSync(path)) fail(`${what} (${path}) is missing: run \`npm run build\` (npm install runs it).`);
  const offline = process.argv.includes("--offline") || !process.env.ANTHROPIC_API_KEY;
  const root = mkdtempSync(join(tmpdir(), "skillwright-demo-"));
  let server;
  try {
    const project = await prepareProject(root);
    const home = join(root, "home");
    mkdirSync(home);
    const env = {
      ...process.env,
      HOME: home,
      SKILLWRIGHT_HOME: home,
      SKILLWRIGHT_MANAGED_DIR: join(root, "managed"),
    };
    if (offline) {
      const { startModelServer, ModelScript } = await import(LIBRARY);
      server = await startModelServer({ script: ModelScript.parse(SCRIPT) });
      env.ANTHROPIC_BASE_URL = server.url;
      env.ANTHROPIC_API_KEY = "demo";
      delete env.ANTHROPIC_AUTH_TOKEN;
    }
    process.stdout.write(
      `skillwright demo: a real session on examples/project (copied to ${project}, one staged change)\n` +
        `model: ${offline ? `the scripted model server at ${server.url} (offline; set ANTHROPIC_API_KEY for the real model)` : "the real model (ANTHROPIC_API_KEY is set)"}\n` +
        `$ skillwright -p "${PROMPT}" --allowedTools "${APPROVED}" --output-format stream-json\n\n`,
    );
    const result = await run(
      process.execPath,
      [BIN, "-p", PROMPT, "--cwd", project, "--allowedTools", APPROVED, "--output-format", "stream-json"],
      { env, cwd: project },
    );
    const lines = result.stdout
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line));
    const sessionId = lines.find((l) => l.type === "system")?.session_id;
    const transcript =
      sessionId === undefined ? undefined : join(home, ".skillwright", "sessions", `${sessionId}.jsonl`);
    const first =
      transcript !== undefined && existsSync(transcript)
        ? readFileSync(transcript, "utf8")
            .split("\n")
            .filter((l) => l.trim() !== "")
            .map((l) => JSON.parse(l))
            .find((e) => e.type === "message" && e.message.role === "user")?.message
        : undefined;
    process.stdout.write(`${narrate(lines, first)}\n`);
    if (result.stderr !== "") process.stderr.write(result.stderr);
    if (result.code !== 0) fail(`the session ended with exit ${result.code}`);
  } finally {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
