// Bundles the built CLI (dist/cli/main.js) into dist/bin/: one ESM entry plus lazily loaded chunks for the
// parts a command may not need (MCP, the model SDK, subcommands). Node spends most of a short command's time
// resolving and loading modules; the bundle cuts a headless run's start-up by about a third.
// dist/bin/ sits at the same depth as dist/cli/, so the CLI's package-relative paths (bundled-skills/) hold.
import { rmSync } from "node:fs";
import { build } from "esbuild";

// Chunk names carry content hashes: without a clean dir, every rebuild would leave the old chunks behind.
rmSync("dist/bin", { recursive: true, force: true });

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
 * zod, loaded when first used instead of at start-up. Every module of the CLI imports zod, but a run uses it
 * only for input the fast paths decline (odd tool input, settings, hooks, MCP, plugins): on a plain `-p` run
 * it is ~114 KB of code compiled and evaluated for nothing. Every `import … from "zod"` or `"zod/v4"` (the
 * same exports) becomes this CommonJS module: an object of getters, one per export, each requiring zod.cjs
 * (zod bundled on its own, see `zodExports`) the first time any is read. One zod instance serves every
 * chunk, as before; `import * as z` reads its members only when a schema is built or parsed.
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
Object.defineProperty(exports, "__esModule", { value: true });
for (const name of ${JSON.stringify([...zodExports, "core"])})
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
for (const name of ["z", "default"]) Object.defineProperty(exports, name, { enumerable: true, value: exports });
`,
    }));
  },
};

await build({
  entryPoints: ["dist/cli/main.js"],
  outdir: "dist/bin",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  // Node compiles every module it loads, and a short command spends more time compiling than running: minified
  // chunks are half the size (1.06 MB -> ~0.5 MB on a -p run) and a -p run ~10% faster (interleaved A/B, 20
  // runs: median 163 -> 144 ms). keepNames keeps functions' and classes' `name` (error classes, stack traces).
  minify: true,
  keepNames: true,
  // PGlite loads its wasm and data files from beside its own modules, and pg may require the optional
  // pg-native: both stay runtime dependencies, imported from node_modules (lazily, by serve and keys).
  external: ["@electric-sql/pglite", "pg"],
  plugins: [lazyZod],
  logLevel: "warning",
  // CommonJS dependencies bundled into ESM still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
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
  outfile: `dist/bin/${ZOD_FILE}`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: true,
  minify: true,
  keepNames: true,
  logLevel: "warning",
});
