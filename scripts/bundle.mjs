// Bundles the built CLI (dist/cli/main.js) into dist/bin/: one ESM entry plus lazily loaded chunks for the
// parts a command may not need (MCP, the model SDK, subcommands); a second bundle of the same code for -p runs
// (p-run-*.cjs, see "Two bundles" below); and zod on its own (zod.cjs, see `lazyZod`). Node spends most of a short
// command's time resolving and loading modules; the bundle cuts a headless run's start-up by about a third.
// dist/bin/ sits at the same depth as dist/cli/, so the CLI's package-relative paths (bundled-skills/) hold.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { build } from "esbuild";

// Chunk names carry content hashes: without a clean dir, every rebuild would leave the old chunks behind.
rmSync("dist/bin", { recursive: true, force: true });

/**
 * Source maps only when asked (`npm run build:maps`, which also has tsc write them): they were 16 of the
 * package's 21 MB unpacked (the print bundle's alone 6.3 MB, sourcesContent included). Node reads them only under
 * `--enable-source-maps` or a debugger, so a user's stack traces are the same without them: function and class
 * names kept (`keepNames`), positions in the minified chunk instead of src/*.ts lines. A build without maps
 * deletes those an earlier build:maps left in dist/ (tsc never removes a file), so that `npm pack` cannot ship
 * stale ones (test/cli/pack.test.ts checks the tarball holds none).
 */
const sourcemap = process.argv.includes("--sourcemap");
if (!sourcemap)
  for (const file of readdirSync("dist", { recursive: true, encoding: "utf8" }))
    if (file.endsWith(".map")) rmSync(join("dist", file));

/** The file zod is bundled into, beside the chunks, loaded by `require` on first use (see `lazyZod`). */
const ZOD_FILE = "zod.cjs";
/**
 * zod's exports as zod.cjs hands them out: all but its locales (+540 KB, never used: the English messages are
 * built in) and `z`/`default`, the namespace itself (the lazy module answers those with itself). `core` is
 * rebuilt as a plain object of zod/v4/core's exports minus its own `locales`, which would pull them back in.
 */
const zodExports = Object.keys(await import("zod")).filter(
  (name) => !["locales", "z", "default", "core"].includes(name),
);
const zodCoreExports = Object.keys(await import("zod/v4/core")).filter((name) => name !== "locales");

/**
 * zod, loaded when first used instead of at start-up. Most modules of the CLI import zod, but a run needs it
 * only to parse the input of a tool call other than Skill's (which has a fast path), or for settings, hooks,
 * MCP or plugins the fast paths decline: before any of these it is ~114 KB compiled and evaluated for nothing,
 * and a run whose only tool is Skill never needs it. Every `import … from "zod"` or `"zod/v4"` (the
 * same exports) becomes this CommonJS module: an object of getters, one per export, each requiring zod.cjs
 * (zod bundled on its own, see `zodExports`) the first time any is read. One zod instance serves every
 * chunk, as before; `import * as z` reads its members only when a schema is built or parsed. The getters sit on
 * the module's prototype, not on it: each of the ~30 modules that import zod gets its namespace from esbuild's
 * `__toESM`, which makes an object of the module's prototype and copies the module's own properties onto it,
 * one getter per property. With ~300 own getters that was ~9,000 property definitions on every -p run.
 * @type {import("esbuild").Plugin}
 */
const lazyZod = {
  name: "lazy-zod",
  setup(b) {
    b.onResolve({ filter: /^zod(\/v4)?$/ }, () => ({ path: "zod", namespace: "lazy-zod" }));
    b.onResolve({ filter: new RegExp(`^\\./${ZOD_FILE.replace(".", "\\.")}$`) }, (args) => ({
      path: args.path,
      external: true,
    }));
    b.onLoad({ filter: /.*/, namespace: "lazy-zod" }, () => ({
      loader: "js",
      contents: `let zod;
const load = () => (zod ??= require("./${ZOD_FILE}"));
const getters = {};
for (const name of ${JSON.stringify([...zodExports, "core"])})
  Object.defineProperty(getters, name, { enumerable: true, get: () => load()[name] });
const namespace = Object.create(getters);
Object.defineProperty(namespace, "__esModule", { value: true });
for (const name of ["z", "default"]) Object.defineProperty(namespace, name, { enumerable: true, value: namespace });
module.exports = namespace;
`,
    }));
  },
};

/** How every output is compiled: both CLI bundles and zod.cjs. */
const compiled = {
  platform: "node",
  target: "node20",
  sourcemap,
  // Node compiles every module it loads, and a short command spends more time compiling than running: minified
  // chunks are half the size (1.06 MB -> ~0.5 MB on a -p run) and a -p run ~10% faster (interleaved A/B, 20
  // runs: median 163 -> 144 ms). keepNames keeps functions' and classes' `name` (error classes, stack traces).
  minify: true,
  keepNames: true,
  logLevel: "warning",
};

/** The options both CLI bundles share. */
const common = {
  ...compiled,
  bundle: true,
  splitting: true,
  format: "esm",
  // PGlite loads its wasm and data files from beside its own modules, and pg may require the optional
  // pg-native; sharp loads its native libvips build for the platform: all three stay runtime dependencies,
  // imported from node_modules (lazily, by serve and keys, and by Read for an image it scales). OpenTelemetry's
  // SDK and exporters stay there too: loaded only when telemetry is on, they would only grow the package. The
  // sandbox runtime finds its seccomp helper and Java agent beside its own modules, so it stays there as well.
  // just-bash (optional, the simulated sandbox's shell) is loaded by its worker thread from the URL the main
  // thread resolves: only its types are imported here, and it stays external should a value import ever be added.
  external: ["@electric-sql/pglite", "pg", "sharp", "@opentelemetry/*", "@anthropic-ai/sandbox-runtime", "just-bash"],
  // CommonJS dependencies bundled into ESM still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

/*
 * Two bundles of the same code. esbuild puts each module in a chunk per set of entry points (dynamic imports)
 * that reach it, so the CLI's many lazily loaded commands cut the modules a -p run needs into ~47 chunks joined
 * by ~220 imports, and Node resolves, reads and links each one. The print bundle (`p-run-[hash].cjs`) is
 * `runCli` again with only what a -p run can reach: the engine, the headless command, the model client, and the
 * lazy parts a run may need (SDK, MCP, plugins, yaml, execa), all in ONE CommonJS file, so that Node 20 can
 * compile it through a V8 code cache (`vm.Script` `cachedData`, src/cli/code-cache.ts; ESM has no code cache
 * before Node 22). main.js sends every -p run there (`printFirst`, src/cli/print-bundle.ts) and every other
 * command to the full bundle. Against the split ESM print bundle it replaces (interleaved, 20 runs, load ~5 on
 * 2 cores, CPU user + sys median): 120 -> 90 ms with the cache accepted; the first run, which compiles the one
 * file from source and writes the cache, costs ~10 ms more than before. Each run uses one bundle's copy of
 * every module: nothing crosses between them but `argv` and `io`.
 */

/** run.js's commands; all but the headless one are left out of the print bundle (a -p run never reaches them). */
const COMMAND = /^\.\/commands\/[a-z-]+\.js$/;
/**
 * The commands run from the print bundle besides -p (issue 47): the ones that read the skills and print, where
 * start-up is most of the run (`list --json` over 1,000 skills spent ~800 ms of a loaded machine's time loading
 * the split ESM chunks, against 39 ms of discovery over its floor). They add ~100 KB to the file; a -p run never
 * compiles their functions (each is a lazily initialised module of the bundle), and each command keeps its own
 * code cache (src/cli/print-bundle.ts). main.js routes these to it (`printFirst`): keep the two lists one.
 */
const BUNDLED_COMMANDS = ["headless", "list", "doctor", "search"];

/** @type {import("esbuild").Plugin} */
const printOnly = {
  name: "print-only",
  setup(b) {
    b.onResolve({ filter: COMMAND }, (args) =>
      args.importer.endsWith("/dist/cli/run.js") &&
      !BUNDLED_COMMANDS.some((name) => args.path === `./commands/${name}.js`)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/**
 * The SDK's web globals, for the print bundle: Node's `Headers` and `FormData` are lazy globals that load its
 * whole internal undici (fetch, web sockets, http2, tls, worker threads: ~20 ms of CPU, measured with
 * `node -e Headers` against `node -e 0`) the first time anything reads them, and the SDK reads both for every
 * request (`new Headers()` to build the request's headers, `body instanceof FormData` on a JSON body). A -p run
 * sends its requests through dist/agent/http-fetch.js (node:http, our own headers and responses), so nothing
 * else would load undici: each SDK module that names one of these gets it from our module instead
 * (lite-headers.ts, a full `Headers`; lazy-form-data.ts, which reads the global only for real form data). Scoped
 * to the SDK's own files: the MCP client and everything else keep the platform's.
 * @type {import("esbuild").Plugin}
 */
const liteWeb = {
  name: "lite-web",
  setup(b) {
    const shims = [
      { name: "Headers", from: resolve("dist/agent/lite-headers.js"), as: "LiteHeaders" },
      { name: "FormData", from: resolve("dist/agent/lazy-form-data.js"), as: "LazyFormData" },
    ];
    b.onLoad({ filter: /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/].*\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const imports = shims
        .filter((shim) => new RegExp(`(?<![.\\w$])${shim.name}\\b`).test(source))
        .map((shim) => `import { ${shim.as} as ${shim.name} } from ${JSON.stringify(shim.from)};\n`);
      return imports.length === 0 ? undefined : { contents: imports.join("") + source, loader: "js" };
    });
  },
};

const print = await build({
  ...compiled,
  bundle: true,
  format: "cjs",
  external: common.external,
  // One file: no module graph to resolve, and code split into chunks would be ESM, which Node 20 compiles
  // without a code cache. import() of a built-in (node:http, node:crypto) becomes require(): a vm.Script has
  // no module loader for import() once its code comes from the cache.
  supported: { "dynamic-import": false },
  // import.meta is empty in CommonJS, as src/io/package-require.ts expects (it falls back to __filename).
  logOverride: { "empty-import-meta": "silent" },
  entryPoints: { run: "dist/cli/run.js" },
  outdir: "dist/bin",
  entryNames: "p-[name]-[hash]",
  outExtension: { ".js": ".cjs" },
  metafile: true,
  plugins: [lazyZod, printOnly, liteWeb],
});
const printEntry = Object.entries(print.metafile.outputs).find(([, o]) => o.entryPoint === "dist/cli/run.js")?.[0];
if (printEntry === undefined) throw new Error("bundle: the print bundle has no entry");
const printFile = basename(printEntry);

/**
 * main.js's `runCli`: a -p run (no command, `-p`/`--print`) and the commands of BUNDLED_COMMANDS go to the print
 * bundle's `runCli`, anything else (or arguments that do not parse) to the full bundle's. Both parse the
 * arguments the same way.
 * @type {import("esbuild").Plugin}
 */
const printFirst = {
  name: "print-first",
  setup(b) {
    b.onResolve({ filter: /^\.\/run\.js$/ }, (args) =>
      args.importer.endsWith("/dist/cli/main.js")
        ? { path: resolve(dirname(args.importer), "run.js"), namespace: "print-first" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "print-first" }, (args) => ({
      loader: "js",
      resolveDir: dirname(args.path),
      contents: `import { runCli as runAny } from ${JSON.stringify(args.path)};
import { parseCliArgs } from "./args.js";
import { createNodeCodeCacheFs } from "./code-cache.js";
import { runPrintBundle } from "./print-bundle.js";
import { fileURLToPath } from "node:url";
const BUNDLED = ${JSON.stringify(BUNDLED_COMMANDS.filter((name) => name !== "headless"))};
export async function runCli(argv, io) {
  const parsed = parseCliArgs(argv);
  const command = parsed.ok ? parsed.args.command : undefined;
  if (parsed.ok && ((command === undefined && parsed.args.print) || BUNDLED.includes(command)))
    return runPrintBundle({
      ...(command === undefined ? {} : { tag: command }),
      file: fileURLToPath(new URL("./${printFile}", import.meta.url)),
      argv,
      io,
      home: parsed.args.home,
      runtime: { version: process.version, arch: process.arch },
      fs: createNodeCodeCacheFs(),
    });
  return runAny(argv, io);
}
`,
    }));
  },
};

await build({
  ...common,
  entryPoints: ["dist/cli/main.js"],
  outdir: "dist/bin",
  plugins: [lazyZod, printFirst],
});

// zod on its own, for `lazyZod`: CommonJS, so that the first use can load it synchronously. Only the exports
// the lazy module hands out are kept, so the locales are tree-shaken away (test/cli/bundle-weight.test.ts).
await build({
  stdin: {
    contents: [
      `import { ${zodCoreExports.map((name, i) => `${name} as c${i}`).join(", ")} } from "zod/v4/core";`,
      `export const core = { ${zodCoreExports.map((name, i) => `${name}: c${i}`).join(", ")} };`,
      `export { ${zodExports.join(", ")} } from "zod";`,
    ].join("\n"),
    resolveDir: ".",
    loader: "js",
  },
  ...compiled,
  outfile: `dist/bin/${ZOD_FILE}`,
  bundle: true,
  format: "cjs",
});
