#!/usr/bin/env node
// Refreshes src/serve/web/vendor/: the two libraries the web page imports from its own origin (the page's CSP is
// `default-src 'self'`, and it has no build step), each the ES module build its package ships, unchanged but for
// the trailing `sourceMappingURL` comment (the map is not shipped, and a browser's devtools would ask for it):
// - marked: Markdown to HTML (CommonMark and GitHub's tables, task lists and fenced code);
// - DOMPurify: the HTML sanitizer whose output the page puts in the DOM (no script, handler or `javascript:` URL
//   survives it).
// Each package is fetched with `npm pack` (the ordinary npm client, the registry's tarball and its integrity check)
// at the version pinned below, with its licence beside it. To move to a new version, change VERSIONS and run:
//   node scripts/vendor-web.mjs
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "src/serve/web/vendor");

/** Each package: its pinned version, the ES module file it ships, the name the page imports, its licence files. */
const VERSIONS = [
  { name: "marked", version: "18.2.1", file: "lib/marked.esm.js", as: "marked.js", licences: ["LICENSE"] },
  {
    name: "dompurify",
    version: "3.5.0",
    file: "dist/purify.es.mjs",
    as: "purify.js",
    licences: ["LICENSE"],
  },
];

const work = mkdtempSync(join(tmpdir(), "skillwright-vendor-"));
try {
  mkdirSync(OUT, { recursive: true });
  const lines = [];
  for (const pkg of VERSIONS) {
    const spec = `${pkg.name}@${pkg.version}`;
    const [packed] = JSON.parse(execFileSync("npm", ["pack", spec, "--json"], { cwd: work, encoding: "utf8" }));
    const dir = join(work, pkg.name);
    mkdirSync(dir);
    execFileSync("tar", ["xzf", join(work, packed.filename), "-C", dir]);
    const source = readFileSync(join(dir, "package", pkg.file), "utf8");
    writeFileSync(join(OUT, pkg.as), source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"));
    for (const licence of pkg.licences) copyFileSync(join(dir, "package", licence), join(OUT, `${pkg.name}.${licence}`));
    lines.push(`- ${pkg.as}: ${spec} (${pkg.file}), integrity ${packed.integrity}`);
    console.log(`vendored ${spec} as src/serve/web/vendor/${pkg.as}`);
  }
  writeFileSync(
    join(OUT, "VERSIONS.md"),
    `# Vendored libraries of the web page\n\nWritten by scripts/vendor-web.mjs; do not edit by hand.\n\n${lines.join("\n")}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
