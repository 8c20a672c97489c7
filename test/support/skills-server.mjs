#!/usr/bin/env node
// A third-party MCP skills server for the tests: the official MCP TypeScript SDK's server (v2,
// `@modelcontextprotocol/server`) with its own implementation of the Skills extension (SEP-2640:
// `skills/list`, `skills/get`, `resources/directory/read`, `skill://` resources with sha256 digests), serving a
// folder of skills (copies the test makes: of test/fixtures/skill-shapes, or of the corpus's real skills when
// there is one; see test/mcp/support.ts). Nothing here is ours.
//
//   node test/support/skills-server.mjs --root DIR [--extra DIR] [--instructions TEXT]
//
// --root DIR          a folder of skill folders, each with a SKILL.md
// --extra DIR         a skill folder that the tool `publish_skill` copies into --root; the catalog then reloads
//                     and the SDK sends `notifications/resources/list_changed`
// --instructions TEXT the server's `instructions`
import { cpSync } from "node:fs";
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

const mcp = new McpServer(
  { name: "corpus-skills", version: "1.0.0" },
  instructions === undefined ? {} : { instructions },
);
const skills = await loadSkills(root, {
  onWarning: (w) => process.stderr.write(`skills-server: ${w.path}: ${w.message}\n`),
});
skills.attach(mcp);

mcp.registerTool("publish_skill", { description: "Publishes one more skill" }, async () => {
  if (extra === undefined) return { content: [{ type: "text", text: "nothing to publish" }], isError: true };
  cpSync(extra, join(root, basename(extra)), { recursive: true });
  const changes = await skills.reload();
  return { content: [{ type: "text", text: `published: ${changes.added.join(", ")}` }] };
});

await mcp.connect(new StdioServerTransport());
