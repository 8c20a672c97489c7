#!/usr/bin/env node
// `npm run example:web-app`: a web app (a mind-map server) that serves skills from its own data, in miniature.
// Skills live in a memory source (no files), the model gets the app's own tools and no file or shell tool, and
// references come through load_reference (one loaded lazily). Offline: the model is the scripted Messages API
// server of `skillwright/testing`. It prints the conversation, then for each request the share of its prefix
// that is byte-identical to the previous request's (what Anthropic's prompt cache can reuse: system → tools →
// messages). The skill listing sits in the system prompt (`skillListing: "system"`) and the prompt names no
// working directory (`filesystem: false`).
import { createEngine, createMemoryFs, createMemorySource, createModelClient, openSession } from "skillwright";
import { startModelServer } from "skillwright/testing";
import { SCRIPT } from "./script.mjs";
import { creatorSkill, loads, pmSkill, reviewerSkill } from "./skills.mjs";
import { APP_TOOLS } from "./tools.mjs";

/** Transcripts kept in memory (an app would use its database). */
function memoryStore() {
  const sessions = new Map();
  return {
    async append(id, entries) {
      sessions.set(id, [...(sessions.get(id) ?? []), ...entries]);
    },
    async read(id) {
      const entries = sessions.get(id);
      if (entries === undefined) throw new Error(`no session ${id}`);
      return entries;
    },
    location: (id) => `memory:${id}`,
  };
}

/** A request as the prompt cache sees it, without the cache marks (they move; the content does not). */
function prefixText(body) {
  const strip = (value) =>
    Array.isArray(value)
      ? value.map(strip)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== "cache_control").map(([k, v]) => [k, strip(v)]))
        : value;
  return Buffer.from(JSON.stringify([strip(body.system), strip(body.tools), strip(body.messages)]));
}

function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i += 1;
  return i;
}

const short = (text, max = 90) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

async function main() {
  const server = await startModelServer({ script: SCRIPT });
  const skills = createMemorySource({ id: "app-db", skills: [pmSkill, creatorSkill] });
  const engine = createEngine({ cwd: "/app", home: "/app/home", fs: createMemoryFs(), sources: [skills] });
  try {
    const { session, tools } = await openSession(engine, {
      client: createModelClient({ baseURL: server.url, apiKey: "offline" }),
      builtinTools: false,
      extraTools: APP_TOOLS,
      // The listing goes in the system prompt once (<available_skills>, docs/behaviour.md §16), not in the first
      // message; skills added later still arrive as message deltas. No working directory: the model has no files.
      skillListing: "system",
      filesystem: false,
      store: memoryStore(),
      now: () => Date.UTC(2026, 0, 1),
    });
    console.log(`tools: ${tools.join(", ")}\n`);
    const ask = async (prompt) => {
      console.log(`[user] ${prompt}`);
      for await (const event of session.send(prompt)) {
        if (event.type === "assistant_message") {
          for (const block of event.message.content) if (block.type === "text") console.log(`[model] ${short(block.text)}`);
        } else if (event.type === "tool_start") {
          console.log(`[tool] ${event.name} ${short(JSON.stringify(event.input), 70)}`);
        } else if (event.type === "tool_end") {
          const text = event.result.content.map((b) => (b.type === "text" ? b.text : "")).join(" ");
          console.log(`   → ${event.result.isError ? "error: " : ""}${short(text)}`);
        } else if (event.type === "error") {
          console.log(`[error] ${event.message}`);
        }
      }
    };
    await ask("Analyse this requirement: teams want to edit mind maps together.");
    // The app adds a skill mid-conversation: the next request announces it in the messages, the prefix holds.
    skills.add(reviewerSkill);
    console.log("[app] added reviewer-skill to the memory source");
    await ask("Now draft a launch post outline.");

    const bodies = server.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body);
    console.log(`\nprompt prefix, request by request (${bodies.length} requests):`);
    let previous;
    for (const [i, body] of bodies.entries()) {
      const text = prefixText(body);
      if (previous === undefined) {
        console.log(`  request ${i + 1}: ${text.length} bytes`);
      } else {
        const same = commonPrefix(previous, text);
        const share = ((100 * same) / text.length).toFixed(1);
        const reused = ((100 * same) / (previous.length - 2)).toFixed(1);
        console.log(
          `  request ${i + 1}: ${text.length} bytes, prefix ${same} bytes identical to request ${i} (${share}% of this request, ${reused}% of request ${i})`,
        );
      }
      previous = text;
    }
    const system = JSON.stringify(bodies[0].system);
    console.log(
      `system prompt holds the skill listing: ${system.includes("<available_skills>") ? "yes" : "no"}; ` +
        `a working directory: ${system.includes("Working directory:") ? "yes" : "no"}`,
    );
    const fixed = bodies.every(
      (b) => JSON.stringify([b.system, b.tools]) === JSON.stringify([bodies[0].system, bodies[0].tools]),
    );
    console.log(`system prompt and tools byte-identical in every request: ${fixed ? "yes" : "no"}`);
    console.log(`lazy reference "past-posts" loaded ${loads.pastPosts} time(s)`);
  } finally {
    await engine.close();
    await server.close();
  }
}

await main();
