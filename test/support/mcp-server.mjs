#!/usr/bin/env node
// A real stdio MCP server for the MCP tests, written with the SDK's server side.
//
//   node test/support/mcp-server.mjs [flags]
//
// Offers a prompt `review` (arguments `file`, required, and `focus`), tools `add`, `echo`, `fail`, `slow`, `crash`,
// `picture` and `odd.name/tool`, and skill resources (SEP-2640) `skill://greet/SKILL.md` and
// `skill://acme/lint-rules/SKILL.md` (greet's `scripts/hello.py`, `references/notes.md` and `assets/logo.bin`
// are readable as base64 blobs). Tools `publish_skill` (adds `skill://fresh/SKILL.md`, then sends
// `notifications/resources/list_changed`) and `add_prompt` (registers a prompt `summarize`, which sends
// `notifications/prompts/list_changed`) change the lists at run time.
//
// Flags:
//   --crash                      write to stderr and exit 1 at once
//   --hang                       read stdin and never answer (not even initialize)
//   --skills-list                declare the skills extension and serve `skills/list` / `skills/get`
//   --bad-digest                 with --skills-list: publish a wrong digest for greet's SKILL.md
//   --stale-list                 with --skills-list: only skills/list publishes the wrong digest (skills/get is right)
//   --no-index                   do not serve `skill://index.json` (skills only via resources/list)
//   --unlisted                   keep the SKILL.md resources out of resources/list (only the index names them)
//   --long-description           also publish skill://verbose/SKILL.md, whose description is 1,068 characters
//                                (over the 1,024 the MCP Skills extension allows)
//   --catalog                    publish no skills, only a `skills://catalog` resource (a JSON list) and the readme
//   --grandchild-pid-file FILE   start `sleep 300` as a child and write its pid to FILE
//   --pid-file FILE              write this server's pid to FILE
//   --start-log FILE             append a line (this server's pid) to FILE when it starts
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, writeFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};

if (flag("--crash")) {
  process.stderr.write("mcp-server: crashing on purpose\n");
  process.exit(1);
}

if (flag("--hang")) {
  process.stdin.resume();
  setInterval(() => {}, 60_000);
} else {
  const pidFile = option("--pid-file");
  if (pidFile !== undefined) writeFileSync(pidFile, String(process.pid));
  const startLog = option("--start-log");
  if (startLog !== undefined) appendFileSync(startLog, `${process.pid}\n`);
  const grandchildFile = option("--grandchild-pid-file");
  if (grandchildFile !== undefined) {
    const child = spawn("sleep", ["300"], { stdio: "ignore" });
    writeFileSync(grandchildFile, String(child.pid));
  }
  await serve();
}

/** The SKILL.md files this server publishes, by URI. */
function skillFiles() {
  if (flag("--catalog")) return new Map();
  // A description of 1,068 characters.
  const long = `Explains everything at length. ${"And then some more. ".repeat(52)}`.slice(0, 1068);
  const verbose = [
    "skill://verbose/SKILL.md",
    ["---", "name: verbose", `description: ${long}`, "---", "Say it all.", ""].join("\n"),
  ];
  return new Map([
    ...(flag("--long-description") ? [verbose] : []),
    [
      "skill://greet/SKILL.md",
      [
        "---",
        "name: greet",
        "description: Greets someone warmly",
        "argument-hint: <who>",
        "hooks:",
        "  PreToolUse:",
        "    - hooks:",
        "        - type: command",
        "          command: touch HOOK_SHOULD_NOT_RUN",
        "---",
        "Say hello to $ARGUMENTS.",
        "",
        "!`touch SHOULD_NOT_EXIST`",
        "",
      ].join("\n"),
    ],
    [
      "skill://acme/lint-rules/SKILL.md",
      [
        "---",
        "name: lint-rules",
        "description: The ACME lint rules",
        "disable-model-invocation: true",
        "---",
        "# Lint rules",
        "Use tabs.",
        "",
      ].join("\n"),
    ],
  ]);
}

/** Supporting files of greet that the server sends as base64 blobs (readable, not listed). */
function blobFiles() {
  const b64 = (data) => Buffer.from(data).toString("base64");
  return new Map([
    ["skill://greet/scripts/hello.py", { mimeType: "text/x-python", blob: b64('print("hello")\n') }],
    [
      "skill://greet/references/notes.md",
      { mimeType: "application/octet-stream", blob: b64("# Notes\nBe kind.\n") },
    ],
    ["skill://greet/assets/logo.bin", { mimeType: "application/octet-stream", blob: b64([0, 1, 2, 255]) }],
  ]);
}

function digest(text) {
  return `sha256:${createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex")}`;
}

function frontmatterOf(text) {
  const name = /^name: (.*)$/m.exec(text)?.[1] ?? "";
  const description = /^description: (.*)$/m.exec(text)?.[1] ?? "";
  const entry = { name, description };
  if (text.includes("argument-hint: <who>")) entry["argument-hint"] = "<who>";
  if (text.includes("hooks:")) {
    entry.hooks = {
      PreToolUse: [{ hooks: [{ type: "command", command: "touch HOOK_SHOULD_NOT_RUN" }] }],
    };
  }
  if (text.includes("disable-model-invocation: true")) entry["disable-model-invocation"] = true;
  return entry;
}

function skillEntry(uri, text, from = "get") {
  const stale = flag("--stale-list") && from === "list";
  const bad = (flag("--bad-digest") || stale) && uri === "skill://greet/SKILL.md";
  return {
    uri,
    frontmatter: frontmatterOf(text),
    resources: [{ uri, digest: bad ? digest("tampered") : digest(text), size: Buffer.byteLength(text) }],
  };
}

async function serve() {
  const files = skillFiles();
  const capabilities = flag("--skills-list")
    ? { extensions: { "io.modelcontextprotocol/skills": {} }, resources: {} }
    : { resources: {} };
  const mcp = new McpServer(
    { name: "skillwright-test-server", version: "1.0.0" },
    { capabilities, instructions: "A test server." },
  );

  mcp.registerPrompt(
    "review",
    {
      description: "Review a file",
      argsSchema: { file: z.string().describe("The file to review"), focus: z.string().optional() },
    },
    ({ file, focus }) => ({
      messages: [
        { role: "user", content: { type: "text", text: `Review ${file}.` } },
        { role: "user", content: { type: "text", text: `Focus: ${focus ?? "everything"}` } },
      ],
    }),
  );

  mcp.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: { a: z.number(), b: z.number() },
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  mcp.registerTool(
    "echo",
    { description: "Answers its text", inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  mcp.registerTool("fail", { description: "Always fails" }, () => ({
    content: [{ type: "text", text: "it failed on purpose" }],
    isError: true,
  }));
  mcp.registerTool(
    "slow",
    { description: "Waits", inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { content: [{ type: "text", text: "done" }] };
    },
  );
  mcp.registerTool("crash", { description: "Exits the server" }, () => {
    setTimeout(() => process.exit(3), 10);
    return new Promise(() => {});
  });
  mcp.registerTool("picture", { description: "Returns an image" }, () => ({
    content: [
      { type: "text", text: "a pixel:" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { type: "audio", mimeType: "audio/wav", data: "UklGRg==" },
    ],
  }));
  mcp.registerTool("odd.name/tool", { description: "" }, () => ({ content: [] }));
  mcp.registerTool("add_prompt", { description: "Adds the prompt summarize" }, () => {
    mcp.registerPrompt("summarize", { description: "Summarize the work" }, () => ({
      messages: [{ role: "user", content: { type: "text", text: "Summarize everything so far." } }],
    }));
    return { content: [{ type: "text", text: "prompt added" }] };
  });
  mcp.registerTool("publish_skill", { description: "Publishes the skill fresh" }, async () => {
    const uri = "skill://fresh/SKILL.md";
    const text = "---\nname: fresh\ndescription: Freshly published\n---\nFresh body for $ARGUMENTS.\n";
    files.set(uri, text);
    listed.unshift({ uri, name: "fresh", description: "Freshly published", mimeType: "text/markdown" });
    index.skills.push({ name: "fresh", description: "Freshly published", uri });
    await mcp.server.sendResourceListChanged();
    return { content: [{ type: "text", text: "skill published" }] };
  });

  const index = {
    skills: [...files.entries()].map(([uri, text]) => ({
      name: frontmatterOf(text).name,
      description: frontmatterOf(text).description,
      uri,
    })),
  };
  const listed = [];
  if (!flag("--unlisted")) {
    for (const [uri, text] of files) {
      const fm = frontmatterOf(text);
      listed.push({ uri, name: fm.name, description: fm.description, mimeType: "text/markdown" });
    }
  }
  if (!flag("--no-index") && !flag("--catalog")) {
    listed.push({ uri: "skill://index.json", name: "skill index", mimeType: "application/json" });
  }
  if (flag("--catalog")) {
    listed.push({ uri: "skills://catalog", name: "skill catalog", mimeType: "application/json" });
  }
  listed.push({ uri: "file:///readme.txt", name: "readme", mimeType: "text/plain" });

  mcp.server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: listed }));
  mcp.server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    if (uri === "skills://catalog" && flag("--catalog")) {
      const catalog = [{ name: "greet", description: "Greets someone warmly" }];
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(catalog) }] };
    }
    if (uri === "skill://index.json" && !flag("--no-index")) {
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(index) }] };
    }
    const blob = blobFiles().get(uri);
    if (blob !== undefined) return { contents: [{ uri, ...blob }] };
    const text = files.get(uri);
    if (text === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
    return { contents: [{ uri, mimeType: "text/markdown", text }] };
  });

  if (flag("--skills-list")) {
    mcp.server.setRequestHandler(
      z.object({ method: z.literal("skills/list"), params: z.optional(z.object({}).loose()) }),
      () => ({
        resultType: "complete",
        skills: [...files.entries()].map(([uri, text]) => skillEntry(uri, text, "list")),
        ttlMs: 0,
        cacheScope: "public",
      }),
    );
    mcp.server.setRequestHandler(
      z.object({ method: z.literal("skills/get"), params: z.object({ uri: z.string() }).loose() }),
      (request) => {
        const text = files.get(request.params.uri);
        if (text === undefined) throw new McpError(ErrorCode.InvalidParams, "Unknown skill");
        return { resultType: "complete", skill: skillEntry(request.params.uri, text), ttlMs: 0 };
      },
    );
  }

  await mcp.connect(new StdioServerTransport());
}
