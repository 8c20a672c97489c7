// The SDK floor of the agent bench, part (a): a bare script doing only what any SDK-based CLI must do for the
// bench's job (import the slim SDK module the CLI uses, make the same two streamed requests to the scripted
// server, consume both streams, print the answer), bundled with esbuild into one file as the shipped bin is.
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { build } from "esbuild";

/** The model id the floor sends (the bench's script matches any model). */
export const FLOOR_MODEL = "claude-sonnet-5-5";
/** `max_tokens` of the floor's requests (the scripted server only checks that it is a positive integer). */
export const FLOOR_MAX_TOKENS = 1_024;
/** The generated source and the bundle, in the caller's dir. */
const SOURCE_FILE = "sdk-floor.src.mjs";
const BUNDLE_FILE = "sdk-floor.mjs";
/** The code-cached floor's launcher, its source and bundle. */
const LAUNCHER_SOURCE = "sdk-floor-cached.src.mjs";
const LAUNCHER_FILE = "sdk-floor-cached.mjs";
/** The plain floor's entry (imports the floor's source and runs it). */
const PLAIN_SOURCE = "sdk-floor-plain.src.mjs";
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
 * call or a request fails. It exports `main()`, which does all this: the caller runs it (`PLAIN_LAUNCHER`, or the
 * code-cached launcher of `cachedLauncherSource`).
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

/** The two turns; the answer goes to stdout. */
export async function main() {
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
}
`;
}

/** The entry of the plain floor bundle (ESM, as the floor was before the CLI had a code cache). */
const PLAIN_LAUNCHER = `import { main } from "./${SOURCE_FILE}";\nawait main();\n`;

/**
 * The entry of the code-cached floor (pure): loads the floor's CommonJS bundle `cjsFile` through the CLI's own
 * loader (src/cli/code-cache.ts, as dist/bin/main.js loads its print bundle), with its own cache under `home`,
 * runs `main()` and, after it, writes the cache when the run had none accepted, exactly as a -p run does.
 * @param {{ codeCacheModule: string, cjsFile: string, home: string }} options
 * @returns {string}
 */
export function cachedLauncherSource({ codeCacheModule, cjsFile, home }) {
  return `import { codeCacheFile, createNodeCodeCacheFs, loadCachedScript } from ${JSON.stringify(codeCacheModule)};

const file = ${JSON.stringify(cjsFile)};
const runtime = { version: process.version, arch: process.arch };
const cacheFile = codeCacheFile({ home: ${JSON.stringify(home)}, env: process.env, script: file, runtime });
const loaded = loadCachedScript({ file, cacheFile, fs: createNodeCodeCacheFs() });
await loaded.exports.main();
loaded.save();
`;
}

/**
 * @typedef {object} FloorBundles
 * @property {string} cached the floor as the CLI's -p path runs: a small ESM launcher that loads the floor's
 *   CommonJS bundle through the V8 code cache (its own, under the bench dir)
 * @property {string} plain the floor as one ESM file, no code cache (the floor before the CLI had one)
 */

/**
 * Writes the floor's source into `dir` and bundles it (and the SDK it imports) with esbuild, with the options
 * of scripts/bundle.mjs minus code splitting, twice: as the print bundle is built and loaded (one CommonJS file,
 * its content hash in its name, run through dist/cli/code-cache.js by a launcher) and as one plain ESM file.
 * `repoRoot` must hold a build (dist/agent/sdk.js, dist/cli/code-cache.js). Rejects when esbuild fails.
 * @param {{ repoRoot: string, dir: string, prompt: string, toolResult: string }} options
 * @returns {Promise<FloorBundles>}
 */
export async function bundleSdkFloor({ repoRoot, dir, prompt, toolResult }) {
  const source = join(dir, SOURCE_FILE);
  const sdkModule = join(repoRoot, "dist", "agent", "sdk.js");
  await writeFile(source, floorSource({ sdkModule, prompt, toolResult }));
  /**
   * As scripts/bundle.mjs: the SDK loads minified in the CLI, so it does in the floor.
   * @type {import("esbuild").BuildOptions}
   */
  const options = {
    bundle: true,
    platform: "node",
    target: "node20",
    minify: true,
    keepNames: true,
    logLevel: "warning",
  };
  const cjs = await build({
    ...options,
    entryPoints: { "sdk-floor": source },
    outdir: dir,
    entryNames: "[name]-[hash]",
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    supported: { "dynamic-import": false },
    metafile: true,
  });
  const cjsFile = Object.keys(cjs.metafile?.outputs ?? {}).find((file) => file.endsWith(".cjs"));
  if (cjsFile === undefined) throw new Error("sdk floor: esbuild wrote no CommonJS bundle");
  const launcher = join(dir, LAUNCHER_SOURCE);
  await writeFile(
    launcher,
    cachedLauncherSource({
      codeCacheModule: join(repoRoot, "dist", "cli", "code-cache.js"),
      cjsFile: resolve(cjsFile),
      home: join(dir, "floor-home"),
    }),
  );
  const cached = join(dir, LAUNCHER_FILE);
  const plain = join(dir, BUNDLE_FILE);
  await build({ ...options, entryPoints: [launcher], outfile: cached, format: "esm" });
  await writeFile(join(dir, PLAIN_SOURCE), PLAIN_LAUNCHER);
  await build({
    ...options,
    entryPoints: [join(dir, PLAIN_SOURCE)],
    outfile: plain,
    format: "esm",
    banner: { js: REQUIRE_BANNER },
  });
  return { cached, plain };
}
