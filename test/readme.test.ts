// Every command in README.md and examples/project/README.md is run by a test. A ```sh block must be preceded by
// one of:
//   <!-- runnable -->              run here with bash from the repository root: exit 0 required
//   <!-- runnable: ci (…) -->      .ci/run runs exactly the commands of these blocks, in order (checked here)
//   <!-- runnable: background (…) -->  a server: started here, the next sh block of the file must be runnable
//                                  and runs while it serves, with URL set to the address it printed ("listening
//                                  on URL"), as the README tells the reader to; then it is stopped
//   <!-- runnable: serve (…) -->   the serve quick start: started here, then a chat through it as the README
//                                  describes (upload examples/skills/greet, an agent, a session, "Hello, I am Ada") must
//                                  get the scripted model's answer, and its web page must be served
//   <!-- not runnable: reason -->  a reason is required
// Runnable blocks get a temp HOME, no real API key, and ANTHROPIC_BASE_URL pointing at the scripted model
// server playing examples/turns.json (the script the README shows), so `-p` runs offline. No block may name a
// fixed port: servers are started with --port 0 and print where they listen. Their `npx skillwright …` runs the
// checkout's built bin, dist/bin/main.js, as the reader's npx does in a clone after `npm install`: straight,
// through an `npx` first on their PATH, never installing or rebuilding (npm's npx takes seconds a call, and the
// first one on a machine runs the package's `prepare`, a rebuild of dist/ under the other test files). One test
// checks that npm's own npx runs this checkout's bin.
import { existsSync, readFileSync, statSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelScript } from "../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../src/dev/model-server.js";
import { freshPgliteDir } from "./support/pglite-template.js";
import { type TmpTree, tmpTree } from "./support/tmp-tree.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = ["README.md", "examples/project/README.md"];
const TURNS_FILE = "examples/turns.json";
const FIRST_SKILL = "examples/skills/greet/SKILL.md";

interface ShBlock {
  doc: string;
  line: number;
  marker: string;
  code: string;
}

/** The ```sh / ```bash / ```shell blocks of a markdown file, each with the comment line before it. */
function shBlocks(doc: string, text: string): ShBlock[] {
  const lines = text.split("\n");
  const blocks: ShBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(sh|bash|shell)\s*$/.exec(lines[i] ?? "");
    if (open === null) {
      if ((lines[i] ?? "").startsWith("```")) {
        // Skip other fenced blocks whole, so their contents are never read as fences.
        for (i += 1; i < lines.length && !(lines[i] ?? "").startsWith("```"); i += 1);
      }
      continue;
    }
    const end = lines.indexOf("```", i + 1);
    if (end === -1) throw new Error(`${doc}:${i + 1}: unclosed code block`);
    blocks.push({
      doc,
      line: i + 1,
      marker: (lines[i - 1] ?? "").trim(),
      code: lines.slice(i + 1, end).join("\n"),
    });
    i = end;
  }
  return blocks;
}

/** The commands of a block: comments dropped, `a && b` split. */
function commandsOf(code: string): string[] {
  return code
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .flatMap((line) => line.split("&&").map((part) => part.trim()));
}

const blocks = DOCS.flatMap((doc) => shBlocks(doc, readFileSync(`${ROOT}${doc}`, "utf8")));
/** Each runnable block, with the background server block just before it in the same file, if any. */
const runnable = blocks.flatMap((b, i) => {
  if (b.marker !== "<!-- runnable -->") return [];
  const prev = blocks[i - 1];
  const background =
    prev?.doc === b.doc && prev.marker.startsWith("<!-- runnable: background") ? prev : undefined;
  return [{ block: b, background }];
});

const BIN = `${ROOT}dist/bin/main.js`;

let tree: TmpTree;
let server: ModelServer;
beforeAll(async () => {
  expect(existsSync(BIN), "run `npm run build` before the tests").toBe(true);
  const npx = await execa("sh", ["-c", "command -v npx"]);
  tree = await tmpTree({
    "home/.keep": "",
    // `npx skillwright …` runs the built bin; any other package goes to npm's npx.
    "bin/npx": [
      "#!/bin/sh",
      `if [ "\${1-}" = skillwright ]; then shift; exec node '${BIN}' "$@"; fi`,
      `exec '${npx.stdout.trim()}' "$@"`,
      "",
    ].join("\n"),
  });
  await chmod(tree.path("bin/npx"), 0o755);
  // The serve blocks keep their data in the default ~/.skillwright/data: a migrated copy, so that neither pays
  // PGlite's initdb (tens of seconds on a busy machine); test/serve/first-run.test.ts covers a first start.
  await freshPgliteDir(tree.path("home/.skillwright/data"));
  // No key check: the README's `export ANTHROPIC_API_KEY=sk-ant-...` line runs as printed.
  server = await startModelServer({
    script: ModelScript.parse(JSON.parse(readFileSync(`${ROOT}${TURNS_FILE}`, "utf8"))),
  });
});
afterAll(async () => {
  await server.close();
  await tree.cleanup();
});

function env(): Record<string, string> {
  return {
    PATH: `${tree.path("bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: tree.path("home"),
    // npm's cache stays where it is (with the temp HOME, npx would set up its cache afresh), and `npm run` asks
    // no registry whether npm is out of date.
    npm_config_cache: process.env.npm_config_cache ?? `${process.env.HOME ?? ""}/.npm`,
    npm_config_update_notifier: "false",
    SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: "dummy",
  };
}

/** Starts a background block in its own process group; resolves once it prints "listening on URL". */
async function startBackground(code: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = execa("bash", ["-euo", "pipefail", "-c", code], {
    cwd: ROOT,
    env: env(),
    extendEnv: false,
    reject: false,
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http\S+)/.exec(seen);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.on("exit", () => reject(new Error(`background block exited: ${seen}`)));
  });
  return {
    url,
    async stop() {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
      await child;
    },
  };
}

describe("the READMEs' commands", () => {
  it("every sh block is marked runnable, or not runnable with a reason", () => {
    expect(blocks.length).toBeGreaterThan(3);
    for (const block of blocks) {
      expect(
        /^<!-- (runnable( ?: ?.+)?|not runnable: .+) -->$/.test(block.marker),
        `${block.doc}:${block.line}: mark the block (got ${JSON.stringify(block.marker)})`,
      ).toBe(true);
    }
    expect(runnable.length).toBeGreaterThanOrEqual(4);
  });

  it("the ci blocks (Quick start, Development) are what .ci/run runs, in order", () => {
    const quick = blocks.filter((b) => b.marker.startsWith("<!-- runnable: ci"));
    expect(quick.length).toBeGreaterThanOrEqual(1);
    const ci = readFileSync(`${ROOT}.ci/run`, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("npm "));
    expect(ci).toEqual(quick.flatMap((b) => commandsOf(b.code)));
    // The system tests (vitest.system.config.ts) are CI's too, after the checks (which build what they run).
    expect(ci.slice(-2)).toEqual(["npm run check", "npm run test:system"]);
  });

  it("every background block is followed by the runnable block that uses it, and no block names a port", () => {
    blocks.forEach((b, i) => {
      const where = `${b.doc}:${b.line}`;
      if (b.marker.startsWith("<!-- runnable: background")) {
        expect(blocks[i + 1]?.marker, `${where}: a background block needs a runnable block after it`).toBe(
          "<!-- runnable -->",
        );
      }
      expect(b.code, `${where}: a fixed port (use --port 0 and the URL the server prints)`).not.toMatch(
        /--port [1-9]|127\.0\.0\.1:\d|localhost:\d/,
      );
    });
  });

  it("npm's own npx runs this checkout's built bin in the checkout, without rebuilding it", async () => {
    const built = statSync(BIN).mtimeMs;
    // --ignore-scripts: the first call on a machine installs the checkout into npx's cache, which would run its
    // `prepare` (a build) while other test files run dist/bin.
    const result = await execa("npx", ["--yes", "--ignore-scripts", "skillwright", "--version"], {
      cwd: ROOT,
      env: { ...env(), PATH: process.env.PATH ?? "/usr/bin:/bin" },
      extendEnv: false,
      reject: false,
      all: true,
    });
    expect(result.exitCode, result.all).toBe(0);
    const version = (JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { version: string }).version;
    expect(result.stdout.trim()).toBe(version);
    expect(statSync(BIN).mtimeMs).toBe(built);
  }, 120_000);

  it("the first skill the README shows is examples/skills/greet/SKILL.md", () => {
    const readme = readFileSync(`${ROOT}README.md`, "utf8");
    const shown = /`examples\/skills\/greet\/SKILL\.md`:\n\n```markdown\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBe(readFileSync(`${ROOT}${FIRST_SKILL}`, "utf8"));
  });

  it("the script the README shows is examples/turns.json, and it is a valid script", () => {
    const readme = readFileSync(`${ROOT}README.md`, "utf8");
    const shown = /`examples\/turns\.json`:\n\n```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(shown).toBeDefined();
    const file = readFileSync(`${ROOT}${TURNS_FILE}`, "utf8");
    expect(JSON.parse(shown ?? "")).toEqual(JSON.parse(file));
    expect(ModelScript.safeParse(JSON.parse(file)).success).toBe(true);
  });

  it.each(
    runnable.map(({ block, background }) => [`${block.doc}:${block.line}`, block, background] as const),
  )(
    "%s exits 0",
    async (_, block, background) => {
      const before = server.requests.length;
      const started = background === undefined ? undefined : await startBackground(background.code);
      let result: Awaited<ReturnType<typeof execa>>;
      try {
        result = await execa("bash", ["-euo", "pipefail", "-c", block.code], {
          cwd: ROOT,
          env: { ...env(), ...(started === undefined ? {} : { URL: started.url }) },
          extendEnv: false,
          reject: false,
          timeout: 120_000,
        });
      } finally {
        await started?.stop();
      }
      expect(result.exitCode, `${block.code}\n---\n${result.stdout}\n${result.stderr}`).toBe(0);
      if (/skillwright -p /.test(block.code)) {
        // The model's Skill call loads the skill the block is about, and the scripted answer comes back.
        expect(result.stdout).toContain("scripted answer");
        const bodies = server.requests.slice(before).map((r) => JSON.stringify(r.body));
        if (background === undefined) {
          expect(bodies.some((body) => body.includes("Launching skill: "))).toBe(true);
        } else {
          // The block reached the server the background block started (through URL), not this one.
          expect(bodies).toEqual([]);
        }
      }
    },
    120_000,
  );
});

describe("the serve quick start", () => {
  const block = blocks.find((b) => b.marker.startsWith("<!-- runnable: serve"));

  it("serves the web page and chats offline as the README describes", async () => {
    expect(block, "README.md has a <!-- runnable: serve … --> block").toBeDefined();
    const served = await startBackground(block?.code ?? "");
    try {
      const page = await fetch(`${served.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
      // What the README tells the reader to do on the page, through the API the page uses.
      const client = new Anthropic({ apiKey: "sk-local", baseURL: served.url, maxRetries: 0 });
      const skill = await client.beta.skills.create({
        files: [
          new File([readFileSync(`${ROOT}${FIRST_SKILL}`)], "greet/SKILL.md", { type: "text/markdown" }),
        ],
      });
      const environment = await client.beta.environments.create({ name: "readme" });
      const agent = await client.beta.agents.create({
        name: "greeter",
        model: "claude-sonnet-5-5",
        skills: [{ type: "custom", skill_id: skill.id }],
      });
      const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
      await client.beta.sessions.events.send(session.id, {
        events: [{ type: "user.message", content: [{ type: "text", text: "Hello, I am Ada" }] }],
      });
      await expect
        .poll(
          async () => {
            const said: string[] = [];
            for await (const event of client.beta.sessions.events.list(session.id)) {
              if (event.type === "agent.tool_use") said.push(`${event.name} ${JSON.stringify(event.input)}`);
              if (event.type === "agent.message")
                said.push(...event.content.map((c) => ("text" in c ? c.text : "")));
            }
            return said;
          },
          { timeout: 60_000 },
        )
        .toEqual([
          'Skill {"skill":"greet"}',
          "Hello! (a scripted answer: the greet skill reached the model)",
        ]);
    } finally {
      await served.stop();
    }
  }, 120_000);
});
