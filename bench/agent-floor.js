// The SDK floor of the agent bench, part (a): a bare script doing only what any SDK-based CLI must do for the
// bench's job (import the slim SDK module the CLI uses, make the same two streamed requests to the scripted
// server, consume both streams, print the answer), bundled with esbuild into one file as the shipped bin is.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";

/** The model id the floor sends (the bench's script matches any model). */
export const FLOOR_MODEL = "claude-sonnet-5-5";
/** `max_tokens` of the floor's requests (the scripted server only checks that it is a positive integer). */
export const FLOOR_MAX_TOKENS = 1_024;
/** The generated source and the bundle, in the caller's dir. */
const SOURCE_FILE = "sdk-floor.src.mjs";
const BUNDLE_FILE = "sdk-floor.mjs";
/** The same banner as scripts/bundle.mjs: CommonJS dependencies bundled into ESM still call require(). */
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * @typedef {object} FloorScript
 * @property {string} sdkModule absolute path of the built slim SDK module (dist/agent/sdk.js)
 * @property {string} prompt the user text of the first request (the script's first turn matches on it)
 * @property {string} toolResult the tool_result text of the second request (the second turn matches on it)
 */

/**
 * The floor's ESM source (pure). The script reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from its env, sends
 * `prompt`, answers the first tool call of the streamed reply with `toolResult`, and writes the text of the
 * second streamed reply to stdout. It exits non-zero (the error on stderr) when the first reply has no tool
 * call or a request fails.
 * @param {FloorScript} script
 * @returns {string}
 */
export function floorSource({ sdkModule, prompt, toolResult }) {
  return `import { createMessagesClient } from ${JSON.stringify(sdkModule)};

const client = createMessagesClient({
  apiKey: process.env.ANTHROPIC_API_KEY ?? null,
  baseURL: process.env.ANTHROPIC_BASE_URL,
});

/** One streamed request; resolves to the reply's content blocks, rebuilt from the events. */
async function turn(messages) {
  const events = await client.messages.create({
    model: ${JSON.stringify(FLOOR_MODEL)},
    max_tokens: ${FLOOR_MAX_TOKENS},
    messages,
    stream: true,
  });
  const blocks = [];
  const json = [];
  for await (const event of events) {
    if (event.type === "content_block_start") {
      blocks[event.index] = { ...event.content_block };
      json[event.index] = "";
    } else if (event.type === "content_block_delta") {
      const block = blocks[event.index];
      if (event.delta.type === "text_delta") block.text += event.delta.text;
      else if (event.delta.type === "input_json_delta") json[event.index] += event.delta.partial_json;
    }
  }
  return blocks.map((block, i) =>
    block.type === "tool_use"
      ? { type: "tool_use", id: block.id, name: block.name, input: json[i] === "" ? {} : JSON.parse(json[i]) }
      : { type: "text", text: block.text },
  );
}

const prompt = { role: "user", content: ${JSON.stringify(prompt)} };
const first = await turn([prompt]);
const call = first.find((block) => block.type === "tool_use");
if (call === undefined) throw new Error("sdk floor: the first reply has no tool call");
const second = await turn([
  prompt,
  { role: "assistant", content: first },
  { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: ${JSON.stringify(toolResult)} }] },
]);
process.stdout.write(second.map((block) => (block.type === "text" ? block.text : "")).join(""));
`;
}

/**
 * Writes the floor's source into `dir` and bundles it (and the SDK it imports) with esbuild, with the options
 * of scripts/bundle.mjs minus code splitting, into one ESM file in `dir`; resolves to that file's path.
 * `repoRoot` must hold a build (dist/agent/sdk.js). Rejects when esbuild fails.
 * @param {{ repoRoot: string, dir: string, prompt: string, toolResult: string }} options
 * @returns {Promise<string>}
 */
export async function bundleSdkFloor({ repoRoot, dir, prompt, toolResult }) {
  const source = join(dir, SOURCE_FILE);
  const bundle = join(dir, BUNDLE_FILE);
  const sdkModule = join(repoRoot, "dist", "agent", "sdk.js");
  await writeFile(source, floorSource({ sdkModule, prompt, toolResult }));
  await build({
    entryPoints: [source],
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // As scripts/bundle.mjs: the SDK loads minified in the CLI, so it does in the floor.
    minify: true,
    keepNames: true,
    logLevel: "warning",
    banner: { js: REQUIRE_BANNER },
  });
  return bundle;
}
