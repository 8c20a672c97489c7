#!/usr/bin/env node
// A modern-only MCP skills server for the tests: the official MCP TypeScript SDK's server (v2) serving protocol
// 2026-07-28 over streamable HTTP with `legacy: "reject"` (a client that only speaks the 2025 `initialize`
// handshake cannot connect), with the SDK's own Skills extension (SEP-2640) over a folder of real skills.
// Listens on 127.0.0.1 and prints `http://127.0.0.1:{port}/mcp` on stdout once it is ready.
//
//   node test/support/skills-http-server.mjs --root DIR [--extra DIR] [--prompts]
//
// --extra DIR   a skill folder that `POST /control/publish` copies into --root; the catalog then reloads and the
//               handler publishes `notifications/resources/list_changed` to every open `subscriptions/listen`
//               stream (on 2026-07-28 there is no other way to tell a client). See serve-mcp-http.mjs for the
//               other /control routes.
// --prompts     also offer the prompt `review`; `POST /control/add-prompt` adds the prompt `summarize` and
//               publishes `notifications/prompts/list_changed` the same way.
import { cpSync } from "node:fs";
import { basename, join } from "node:path";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { loadSkills } from "@modelcontextprotocol/server/ext/skills/node";
import { serveMcpHandler } from "./serve-mcp-http.mjs";

const argv = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const root = option("--root");
const extra = option("--extra");
const withPrompts = argv.includes("--prompts");
/** The prompts offered (each request's server is built anew, from this list). */
const prompts = [["review", "Review the work"]];
if (root === undefined) {
  process.stderr.write("skills-http-server: --root DIR is required\n");
  process.exit(2);
}

const skills = await loadSkills(root);
const handler = createMcpHandler(
  () => {
    const mcp = new McpServer(
      { name: "corpus-skills-http", version: "1.0.0" },
      { instructions: "Skills over the 2026-07-28 protocol." },
    );
    skills.attach(mcp);
    if (withPrompts) {
      for (const [name, description] of prompts) {
        mcp.registerPrompt(name, { description }, () => ({
          messages: [{ role: "user", content: { type: "text", text: `${description}.` } }],
        }));
      }
    }
    return mcp;
  },
  { legacy: "reject" },
);

serveMcpHandler(handler, {
  async publish() {
    if (extra === undefined) return { error: "no --extra skill to publish" };
    cpSync(extra, join(root, basename(extra)), { recursive: true });
    const changes = await skills.reload();
    if (changes.listChanged) handler.notify.resourcesChanged();
    return changes;
  },
  async "add-prompt"() {
    prompts.push(["summarize", "Summarize everything so far"]);
    handler.notify.promptsChanged();
    return { added: "summarize" };
  },
});
