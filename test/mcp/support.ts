import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import type { McpStdioServerConfig } from "../../src/mcp/config-schema.js";
import { corpusPath } from "../support/corpus.js";

/** The stdio test server (test/support/mcp-server.mjs). */
export const SERVER_SCRIPT = fileURLToPath(new URL("../support/mcp-server.mjs", import.meta.url));

/** A config that runs the test server with `flags`. */
export function testServer(...flags: string[]): McpStdioServerConfig {
  return { command: process.execPath, args: [SERVER_SCRIPT, ...flags] };
}

export { isAlive, waitUntil as waitFor } from "../support/processes.js";

/** The third-party skills server: the official MCP SDK v2 server with its own SEP-2640 implementation. */
export const SKILLS_SERVER = fileURLToPath(new URL("../support/skills-server.mjs", import.meta.url));

/** A folder of skill folders to serve over MCP, and what the tests expect of it. */
export interface ServedSkills {
  /** Where the skill folders are (read in place, copied by the tests that serve them). */
  dir: string;
  /** The two skills served from the start, in name order. */
  served: readonly [string, string];
  /** How each served skill's description starts. */
  starts: readonly [string, string];
  /** A file of the second served skill, relative to its folder; its body names it. */
  file: string;
  /** A third skill, which the server publishes mid-session (`publish_skill`). */
  extra: string;
}

/** Skills we wrote for the tests (test/fixtures/skill-shapes), always there. */
export const FIXTURE_SKILLS: ServedSkills = {
  dir: fileURLToPath(new URL("../fixtures/skill-shapes", import.meta.url)),
  served: ["deploy-check", "tidy-sql"],
  starts: ["Checks that a service is ready to deploy", "Formats SQL queries into a consistent house style"],
  file: "references/style.md",
  extra: "release-notes",
};

/**
 * Real skills written by others (anthropics/skills), served over MCP in place of a vendor's catalog. Only in
 * {@link describeWithCorpus} tests: a checkout may have no corpus.
 */
export const CORPUS_SKILLS: ServedSkills = {
  dir: corpusPath("anthropics-skills"),
  served: ["brand-guidelines", "webapp-testing"],
  starts: ["Applies Anthropic's official brand colors", "Toolkit for interacting with"],
  file: "scripts/with_server.py",
  extra: "internal-comms",
};

/** Copies the served skills of `skills` into `root/skills` (a folder the server may change) and returns it. */
export function copyServed(skills: ServedSkills, root: string): string {
  for (const name of skills.served) {
    cpSync(join(skills.dir, name), join(root, "skills", name), { recursive: true });
  }
  return join(root, "skills");
}

/** The 2026-07-28-only skills server over streamable HTTP (test/support/skills-http-server.mjs). */
export const HTTP_SKILLS_SERVER = fileURLToPath(
  new URL("../support/skills-http-server.mjs", import.meta.url),
);

/** A running {@link HTTP_SKILLS_SERVER}: its MCP URL and its `/control` routes (see serve-mcp-http.mjs). */
export interface HttpSkillsServer {
  url: string;
  /** `POST /control/{name}`'s JSON answer. */
  control(name: string): Promise<unknown>;
  /** What the server was asked so far, and how many listen streams are open. */
  stats(): Promise<{ methods: Record<string, number>; listening: number }>;
  stop(): Promise<void>;
}

/** Starts {@link HTTP_SKILLS_SERVER} with `args` and waits for its URL. */
export async function startHttpSkillsServer(args: string[]): Promise<HttpSkillsServer> {
  const server = execa(process.execPath, [HTTP_SKILLS_SERVER, ...args], { reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    void server.then(() => reject(new Error(`the HTTP skills server exited: ${server.stderr ?? ""}`)));
  });
  const base = url.replace(/\/mcp$/, "/control");
  return {
    url,
    control: async (name) => (await fetch(`${base}/${name}`, { method: "POST" })).json(),
    stats: async () =>
      (await (await fetch(`${base}/stats`)).json()) as {
        methods: Record<string, number>;
        listening: number;
      },
    async stop() {
      server.kill("SIGTERM");
      await server;
    },
  };
}
