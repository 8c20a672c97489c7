// What a headless run of the shipped bundle (dist/bin) loads, checked from inside the process: a preload
// (`node -r`) records, at exit, the CommonJS modules required, the built-in readline modules loaded and
// whether process.stdin was built. zod is bundled on its own (dist/bin/zod.cjs, scripts/bundle.mjs) and
// required on first use: a run whose only tool call is a Skill call never loads it; a call the fast paths
// decline loads it and answers exactly as the source does. Node's internal undici (the lazy `Headers`,
// `FormData`, `Response` globals) is never loaded: requests go through http-fetch.ts.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { createNodeFs } from "../../src/io/fs.js";
import { createReadTool } from "../../src/tools/read.js";
import { type RequestBody, resultText, toolResults } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

/** The preload: records what the run loaded into `$LOAD_REPORT` when the process exits. */
const PRELOAD = `const { writeFileSync } = require("node:fs");
const touched = new Set();
// How often a zod export gets defined: once by the lazy zod module, not again for each module importing zod.
let zodExportDefinitions = 0;
const defineProperty = Object.defineProperty;
Object.defineProperty = function (target, key, descriptor) {
  if (key === "ZodString") zodExportDefinitions += 1;
  return defineProperty(target, key, descriptor);
};
const stdin = Object.getOwnPropertyDescriptor(process, "stdin");
Object.defineProperty(process, "stdin", {
  configurable: true,
  enumerable: stdin.enumerable,
  get() {
    touched.add("stdin");
    return stdin.get.call(process);
  },
});
process.on("exit", () =>
  writeFileSync(
    process.env.LOAD_REPORT,
    JSON.stringify({
      required: Object.keys(require.cache),
      builtins: process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13)),
      touched: [...touched],
      zodExportDefinitions,
    }),
  ),
);
`;

/** An ESM resolve hook (registered by `--import register.mjs`) that logs every URL resolved to `$LOAD_LOG`. */
const RESOLVE_HOOK = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LOAD_LOG, resolved.url + "\\n");
  return resolved;
}
`;

interface LoadReport {
  required: string[];
  builtins: string[];
  touched: string[];
  zodExportDefinitions: number;
}

let tree: TmpTree;
beforeAll(async () => {
  assertBuilt();
  tree = await tmpTree({
    "preload.cjs": PRELOAD,
    "hook.mjs": RESOLVE_HOOK,
    "register.mjs": 'import { register } from "node:module";\nregister("./hook.mjs", import.meta.url);\n',
    "home/.keep": "",
    "project/.git": { dir: true },
    "project/.claude/skills/notes/SKILL.md": "---\ndescription: Takes notes\n---\nWrite NOTES.\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function runBin(turns: ScriptTurnInput[], env: Record<string, string> = {}) {
  model = await startTestModel(turns);
  const report = tree.path("load-report.json");
  const log = tree.path("load-log.txt");
  writeFileSync(log, "");
  const run = await execa(
    process.execPath,
    [
      "-r",
      tree.path("preload.cjs"),
      "--import",
      tree.path("register.mjs"),
      BIN,
      "-p",
      "go",
      "--cwd",
      tree.path("project"),
      "--home",
      tree.path("home"),
    ],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: tree.path("home"),
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
        LOAD_REPORT: report,
        LOAD_LOG: log,
        ...env,
      },
      extendEnv: false,
      reject: false,
      stdin: "pipe",
      timeout: 30_000,
    },
  );
  const loaded = JSON.parse(readFileSync(report, "utf8")) as LoadReport;
  const bodies = model.server.requests
    .filter((r) => r.path === "/v1/messages")
    .map((r) => r.body as RequestBody);
  const binFiles = readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith(BIN_URL))
    .map((url) => url.slice(BIN_URL.length));
  return { run, loaded, bodies, binFiles: [...new Set(binFiles)] };
}

const isZod = (file: string) => file.endsWith("/dist/bin/zod.cjs");
const BIN_URL = `${pathToFileURL(dirname(BIN)).href}/`;

/** The files main.js imports statically (it loads them whatever the command). */
function mainImports(): string[] {
  const main = readFileSync(BIN, "utf8");
  return [...main.matchAll(/from\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1] ?? "");
}

describe("what a -p run of dist/bin loads", () => {
  it("a run whose only tool call is a Skill call loads no zod, no node:readline and leaves stdin alone", async () => {
    const { run, loaded } = await runBin([toolTurn("Skill", { skill: "notes" }), textTurn("noted")]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("noted");
    expect(loaded.required.filter(isZod)).toEqual([]);
    expect(loaded.builtins).not.toContain("readline");
    expect(loaded.touched).toEqual([]);
  });

  it("a -p run never loads node's internal undici (fetch, http2, tls): the SDK gets our Headers and FormData", async () => {
    const { run, loaded } = await runBin([toolTurn("Skill", { skill: "notes" }), textTurn("noted")]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("noted");
    expect(loaded.builtins.filter((m) => /undici|http2|^tls$/.test(m))).toEqual([]);
  });

  it("zod's lazy exports are defined once, not copied into each importing module's namespace", async () => {
    const { run, loaded } = await runBin([toolTurn("Skill", { skill: "notes" }), textTurn("noted")]);
    expect(run.exitCode).toBe(0);
    expect(loaded.required.filter(isZod)).toEqual([]);
    expect(loaded.zodExportDefinitions).toBe(1);
  });

  it("a -p run loads main.js and its own imports, then only the print bundle (one p-run-*.cjs)", async () => {
    const { run, binFiles } = await runBin([toolTurn("Skill", { skill: "notes" }), textTurn("noted")], {
      SKILLWRIGHT_CODE_CACHE_DEBUG: "1",
    });
    expect(run.exitCode).toBe(0);
    const own = new Set(["main.js", ...mainImports()]);
    // No other module of dist/bin is resolved: the print bundle is one CommonJS file compiled by the code cache.
    expect(binFiles.filter((file) => !own.has(file))).toEqual([]);
    expect(run.stderr).toMatch(/^skillwright: code cache (missing|accepted), (written|kept)\n?$/);
    expect(
      readdirSync(dirname(BIN)).filter((file) => file.startsWith("p-") && !file.endsWith(".map")),
    ).toEqual([expect.stringMatching(/^p-run-[A-Z0-9]+\.cjs$/)]);
  });

  it("a tool call zod has to parse loads it once, and the model gets the source's error text", async () => {
    const { run, loaded, bodies } = await runBin([toolTurn("Read", {}), textTurn("done")]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("done");
    expect(loaded.required.filter(isZod)).toHaveLength(1);
    const expected = await createReadTool({ fs: createNodeFs(), homeDir: tree.path("home") }).run(
      {},
      { cwd: tree.path("project"), signal: new AbortController().signal, toolUseId: "t" },
    );
    expect(expected.isError).toBe(true);
    const second = bodies[1];
    if (second === undefined) throw new Error("no second request");
    expect(resultText(toolResults(second)[0])).toBe(
      expected.content.map((c) => (c.type === "text" ? c.text : "")).join(""),
    );
  });
});
