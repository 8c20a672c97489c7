#!/usr/bin/env node
// A third-party MCP skills server for the tests: the official MCP TypeScript SDK's server (v2,
// `@modelcontextprotocol/server`) with its own implementation of the Skills extension (SEP-2640:
// `skills/list`, `skills/get`, `resources/directory/read`, `skill://` resources with sha256 digests), serving a
// folder of skills (copies the test makes: of test/fixtures/skill-shapes, or of the corpus's real skills when
// there is one; see test/mcp/support.ts). Nothing here is ours.
//
//   node test/support/skills-server.mjs --root DIR [--extra DIR] [--instructions TEXT] [--pid-file F] [--log F]
//
// --root DIR          a folder of skill folders, each with a SKILL.md
// --extra DIR         a skill folder that the tool `publish_skill` (or a SIGUSR1) copies into --root; the catalog
//                     then reloads and the SDK sends `notifications/resources/list_changed`
// --instructions TEXT the server's `instructions`
// --pid-file F        write the server's pid to F once it is connected (for SIGUSR1)
// --log F             append the method of every request the server receives to F, one a line
import { appendFileSync, cpSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { McpServer } from "@modelcontextprotocol/server";
import { loadSkills } from "@modelcontextprotocol/server/ext/skills/node";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const argv = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const root = option("--root");
if (root === undefined) {
  process.stderr.write("skills-server: --root DIR is required\n");
  process.exit(2);
}
const extra = option("--extra");
const instructions = option("--instructions");
const pidFile = option("--pid-file");
const log = option("--log");

const mcp = new McpServer(
  { name: "corpus-skills", version: "1.0.0" },
  instructions === undefined ? {} : { instructions },
);
const skills = await loadSkills(root, {
  onWarning: (w) => process.stderr.write(`skills-server: ${w.path}: ${w.message}\n`),
});
skills.attach(mcp);

async function publish() {
  if (extra === undefined) return undefined;
  cpSync(extra, join(root, basename(extra)), { recursive: true });
  return skills.reload();
}

mcp.registerTool("publish_skill", { description: "Publishes one more skill" }, async () => {
  const changes = await publish();
  if (changes === undefined)
    return { content: [{ type: "text", text: "nothing to publish" }], isError: true };
  return { content: [{ type: "text", text: `published: ${changes.added.join(", ")}` }] };
});
process.on("SIGUSR1", () => void publish());

const transport = new StdioServerTransport();
await mcp.connect(transport);
if (log !== undefined) {
  const receive = transport.onmessage;
  transport.onmessage = (message, info) => {
    if (typeof message.method === "string" && "id" in message) appendFileSync(log, `${message.method}\n`);
    receive?.(message, info);
  };
}
if (pidFile !== undefined) writeFileSync(pidFile, String(process.pid));
