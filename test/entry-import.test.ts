// Importing the package (`import("skillwright")`, dist/index.js) must stay cheap for an application that embeds
// the engine (a web service, a serverless function's cold start): it loads what creating an engine needs, and
// the rest (zod, the built-in tools, settings/plugin/MCP parsing, the session machinery) on first use. A child
// process imports the built entry with a load hook (test/support/load-recorder.mjs) recording every module
// loaded; then imports zod itself, to show the recorder would have seen it. A first `discover()` loads zod only
// when some file has to be validated by a zod schema (a settings file the zod-free reader declines, ...).
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "./support/tmp-tree.js";

const ENTRY = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const RECORDER = fileURLToPath(new URL("./support/load-recorder.mjs", import.meta.url));
const MARK = "-- entry imported --";

const DISCOVER_CHILD = `
import { register } from "node:module";
const [recorder, logFile, entry, cwd, home] = process.argv.slice(1);
register(recorder, { data: { logFile } });
const { createEngine } = await import(entry);
await createEngine({ cwd, home }).discover();
`;

/** The packages (`node_modules/{name}/`, scoped names whole) among loaded file URLs. */
function packagesOf(urls: readonly string[]): Set<string> {
  return new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
}

/** The packages (`node_modules/{name}/`) a child that creates an engine over `cwd` and `home` and discovers loaded. */
async function packagesLoadedByDiscover(logFile: string, cwd: string, home: string): Promise<Set<string>> {
  await execa(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      DISCOVER_CHILD,
      pathToFileURL(RECORDER).href,
      logFile,
      pathToFileURL(ENTRY).href,
      cwd,
      home,
    ],
    {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      extendEnv: false,
    },
  );
  const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
  return packagesOf(lines);
}

const CHILD = `
import { appendFileSync } from "node:fs";
import { register } from "node:module";
const [recorder, logFile, entry, mark] = process.argv.slice(1);
register(recorder, { data: { logFile } });
await import(entry);
appendFileSync(logFile, mark + "\\n");
await import("zod");
`;

/** What one import of the entry loaded (file URLs), and what importing zod afterwards loaded. */
interface Loads {
  entry: string[];
  afterwards: string[];
}

async function recordLoads(logFile: string): Promise<Loads> {
  await execa(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      CHILD,
      pathToFileURL(RECORDER).href,
      logFile,
      pathToFileURL(ENTRY).href,
      MARK,
    ],
    {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      extendEnv: false,
    },
  );
  const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
  const mark = lines.indexOf(MARK);
  return { entry: lines.slice(0, mark), afterwards: lines.slice(mark + 1) };
}

describe('import("skillwright")', () => {
  let tree: TmpTree;
  let loads: Loads;
  beforeAll(async () => {
    tree = await tmpTree({ "log.txt": "" });
    loads = await recordLoads(tree.path("log.txt"));
  });
  afterAll(() => tree.cleanup());

  it("records the entry's own modules, and zod's (the recorder sees what is loaded)", () => {
    expect(loads.entry).toContain(pathToFileURL(ENTRY).href);
    const all = [...loads.entry, ...loads.afterwards];
    expect(all.some((url) => url.includes("/node_modules/zod/"))).toBe(true);
  });

  it("loads no third-party package but p-limit: no zod, picomatch or ignore", () => {
    const packages = packagesOf(loads.entry);
    // p-limit (and its yocto-queue) bounds discovery's parallel reads: small, and needed by the first discover.
    expect([...packages].filter((name) => name !== "p-limit" && name !== "yocto-queue")).toEqual([]);
  });

  it("loads neither the session machinery nor the settings, plugin and MCP parsers", () => {
    const ours = loads.entry
      .map((url) => url.slice(url.indexOf("/dist/") + 1))
      .filter((p) => p.startsWith("dist/"));
    expect(ours).not.toContain("dist/session/open-session.js");
    expect(ours).not.toContain("dist/engine/extensions.js");
    expect(ours.filter((p) => p.startsWith("dist/tools/")).sort()).toEqual([
      "dist/tools/define-tool.js",
      "dist/tools/truncate.js",
    ]);
  });
});

describe("a first discover()", () => {
  let tree: TmpTree;
  beforeAll(async () => {
    tree = await tmpTree({
      "empty.txt": "",
      "bad.txt": "",
      "empty-home/.keep": "",
      "empty-project/.keep": "",
      "home/.keep": "",
      // `model` must be a string: the zod-free reader declines the file, and zod words the warning.
      "project/.claude/settings.json": JSON.stringify({ model: 3 }),
    });
  });
  afterAll(() => tree.cleanup());

  it("loads no zod over an empty home and project (no settings, plugins or MCP configs)", async () => {
    const packages = await packagesLoadedByDiscover(
      tree.path("empty.txt"),
      tree.path("empty-project"),
      tree.path("empty-home"),
    );
    expect(packages).toContain("p-limit");
    expect(packages).not.toContain("zod");
  });

  it("loads zod for a settings file the zod-free reader declines", async () => {
    const packages = await packagesLoadedByDiscover(
      tree.path("bad.txt"),
      tree.path("project"),
      tree.path("home"),
    );
    expect(packages).toContain("zod");
  });
});
