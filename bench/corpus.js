// A deterministic synthetic skill corpus for the benches: managed, user, project and nested project roots,
// symlinked duplicates, conditional skills, malformed files and realistic frontmatter.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRng } from "./lib.js";

/** Share of entries that are symlinks to a skill dir in another root (realpath duplicates). */
export const SYMLINK_SHARE = 0.02;
/** Share of skills with `paths:` (conditional). */
export const PATHS_SHARE = 0.05;
/** Share whose frontmatter only a full YAML parser reads (nested maps, flow maps, anchors). */
export const YAML_HEAVY_SHARE = 0.03;
/** How descriptions are written (the rest plain): real skills quote most of them. */
export const DESCRIPTION_STYLES = { doubleQuoted: 0.6, singleQuoted: 0.1, block: 0.1 };
/** Share with an `allowed-tools` list (flow, block or comma string). */
export const ALLOWED_TOOLS_SHARE = 0.3;
/** Share with a one-level `metadata:` map. */
export const METADATA_SHARE = 0.15;
/** Share of files with CRLF line ends. */
export const CRLF_SHARE = 0.05;
/** Share of files starting with a UTF-8 BOM. */
export const BOM_SHARE = 0.02;
/** Share of malformed files (bad YAML, unclosed fence, binary), split evenly. */
export const MALFORMED_SHARE = 0.01;
/** Share of skills whose name is already taken in an earlier root (a `shadowed` clash). */
export const CLASH_SHARE = 0.01;
/** Share of skills without a description (it falls back to the first body line). */
export const NO_DESCRIPTION_SHARE = 0.02;
/** Share of legacy commands that sit in a namespace subdir (`ns:name`). */
export const NAMESPACED_COMMAND_SHARE = 0.3;
/** Body size range in bytes, uniform. */
export const BODY_BYTES = { min: 1_024, max: 20_480 };
/** Size of the text pool bodies are cut from. */
const POOL_BYTES = 48 * 1_024;

/**
 * @typedef {object} CorpusRoot
 * @property {string} dir
 * @property {"skills" | "commands"} layout
 * @property {number} share of the real (non-symlink) entries
 */

/**
 * @typedef {object} CorpusStats
 * @property {number} entries skill dirs, command files and symlinks: what a scanner sees
 * @property {number} files real skill files written
 * @property {number} commands of which legacy commands
 * @property {number} symlinks
 * @property {number} paths conditional skills
 * @property {number} quoted single- or double-quoted descriptions
 * @property {number} blockScalars `|` / `>` descriptions
 * @property {number} lists `allowed-tools` lists
 * @property {number} maps one-level `metadata:` maps
 * @property {number} yamlHeavy frontmatter only a full YAML parser reads
 * @property {number} crlf files with CRLF line ends
 * @property {number} bom files starting with a BOM
 * @property {number} clashes
 * @property {{ badYaml: number, unclosed: number, binary: number }} malformed
 * @property {number} bytes total bytes written
 * @property {number} expectedSkills distinct names: what discovery must return
 */

/**
 * @typedef {object} Corpus
 * @property {string} dir the corpus root (the temp dir given)
 * @property {string} managedDir for `$SKILLWRIGHT_MANAGED_DIR`
 * @property {string} home
 * @property {string} gitRoot a repo inside home
 * @property {string} cwd two levels below the git root
 * @property {CorpusRoot[]} roots where entries were written
 * @property {CorpusStats} stats
 */

const ADJECTIVES = ["fast", "safe", "tidy", "smart", "quick", "lazy", "strict", "clean", "deep", "light"];
const NOUNS = ["deploy", "review", "lint", "release", "triage", "migrate", "test", "docs", "audit", "bench"];
const WORDS = (
  "the a skill file repo code test build deploy review change commit branch server client api schema query " +
  "table index cache token model agent tool user project config log error warning retry timeout request " +
  "response stream event hook plugin command release version docs guide step check run fix update create"
).split(" ");
const TOOLS = ["Read", "Grep", "Glob", "Edit", "Write", "Bash(git status:*)", "Bash(npm test:*)", "WebFetch"];
const NAMESPACES = ["git", "ops", "db", "frontend"];

/**
 * The roots a corpus fills, with their share of entries: managed, user, the git root, a dir between it and the
 * cwd, and the cwd (so project roots are found by walking up from a nested cwd).
 * @param {{ managedDir: string, home: string, gitRoot: string, cwd: string }} base
 * @returns {CorpusRoot[]}
 */
export function corpusRoots({ managedDir, home, gitRoot, cwd }) {
  return [
    { dir: join(managedDir, "skills"), layout: "skills", share: 0.04 },
    { dir: join(managedDir, "commands"), layout: "commands", share: 0.01 },
    { dir: join(home, ".claude", "skills"), layout: "skills", share: 0.2 },
    { dir: join(home, ".agents", "skills"), layout: "skills", share: 0.05 },
    { dir: join(home, ".claude", "commands"), layout: "commands", share: 0.03 },
    { dir: join(gitRoot, ".claude", "skills"), layout: "skills", share: 0.22 },
    { dir: join(gitRoot, ".agents", "skills"), layout: "skills", share: 0.05 },
    { dir: join(gitRoot, ".claude", "commands"), layout: "commands", share: 0.03 },
    { dir: join(dirname(cwd), ".claude", "skills"), layout: "skills", share: 0.1 },
    { dir: join(cwd, ".claude", "skills"), layout: "skills", share: 0.22 },
    { dir: join(cwd, ".agents", "skills"), layout: "skills", share: 0.05 },
  ];
}

/**
 * Writes a corpus of `n` entries under `dir` (which must exist and be empty). The same `n` and `seed` give
 * byte-identical trees. Synchronous writes: generation is not what is measured.
 * @param {{ dir: string, n: number, seed?: number }} options
 * @returns {Corpus}
 */
export function generateCorpus({ dir, n, seed = 20_260_101 }) {
  const rng = createRng(seed ^ n);
  const managedDir = join(dir, "managed");
  const home = join(dir, "home");
  const gitRoot = join(home, "code", "monorepo");
  const cwd = join(gitRoot, "packages", "web");
  mkdirSync(join(gitRoot, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const roots = corpusRoots({ managedDir, home, gitRoot, cwd });
  for (const root of roots) mkdirSync(root.dir, { recursive: true });

  const pool = textPool(rng);
  const symlinks = Math.round(n * SYMLINK_SHARE);
  const real = n - symlinks;
  /** @type {CorpusStats} */
  const stats = {
    entries: n,
    files: 0,
    commands: 0,
    symlinks: 0,
    paths: 0,
    quoted: 0,
    blockScalars: 0,
    lists: 0,
    maps: 0,
    yamlHeavy: 0,
    crlf: 0,
    bom: 0,
    clashes: 0,
    malformed: { badYaml: 0, unclosed: 0, binary: 0 },
    bytes: 0,
    expectedSkills: 0,
  };
  /** @type {Set<string>} */
  const names = new Set();
  /** @type {{ root: number, name: string, dir: string }[]} */
  const skillDirs = [];

  let index = 0;
  let assigned = 0;
  for (const [r, root] of roots.entries()) {
    const count = r === roots.length - 1 ? real - assigned : Math.round(real * root.share);
    assigned += count;
    // Skill dirs of earlier roots are a prefix of `skillDirs`: roots are filled in order.
    const earlier = skillDirs.length;
    /** @type {Set<string>} */
    const taken = new Set();
    for (let k = 0; k < count; k++, index++) {
      const fresh = `${rng.pick(ADJECTIVES)}-${rng.pick(NOUNS)}-${index.toString(36)}`;
      const rival = root.layout === "skills" && earlier > 0 && rng.chance(CLASH_SHARE);
      const rivalName = rival ? skillDirs[rng.int(0, earlier - 1)]?.name : undefined;
      const clash = rivalName !== undefined && !taken.has(rivalName);
      let name = clash ? rivalName : fresh;
      taken.add(name);
      let path;
      if (root.layout === "skills") {
        path = join(root.dir, name, "SKILL.md");
        skillDirs.push({ root: r, name, dir: dirname(path) });
      } else {
        const ns = rng.chance(NAMESPACED_COMMAND_SHARE) ? rng.pick(NAMESPACES) : undefined;
        path = ns === undefined ? join(root.dir, `${name}.md`) : join(root.dir, ns, `${name}.md`);
        name = ns === undefined ? name : `${ns}:${name}`;
        stats.commands++;
      }
      if (clash) stats.clashes++;
      names.add(name);
      const content = skillFile(rng, pool, name, root.layout, stats);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      stats.files++;
      stats.bytes += content.length;
    }
  }

  while (stats.symlinks < symlinks && skillDirs.length > 0) {
    const target = rng.pick(skillDirs);
    const others = roots.filter((root, r) => root.layout === "skills" && r !== target.root);
    const link = join(rng.pick(others).dir, target.name);
    try {
      symlinkSync(target.dir, link, "dir");
      stats.symlinks++;
    } catch {
      // The name is taken in that root already; pick again.
    }
  }
  stats.expectedSkills = names.size;
  return { dir, managedDir, home, gitRoot, cwd, roots, stats };
}

/**
 * Markdown-ish text to cut bodies from: headings, paragraphs, lists and code fences.
 * @param {import("./lib.js").Rng} rng
 * @returns {string}
 */
function textPool(rng) {
  const parts = [];
  let size = 0;
  while (size < POOL_BYTES) {
    const roll = rng.next();
    let part;
    if (roll < 0.1) part = `## ${sentence(rng, 3, 6)}\n\n`;
    else if (roll < 0.25) part = `- ${sentence(rng, 4, 12)}\n- ${sentence(rng, 4, 12)}\n\n`;
    else if (roll < 0.32)
      part = `\`\`\`bash\n${rng.pick(WORDS)} --${rng.pick(WORDS)} ${rng.pick(WORDS)}\n\`\`\`\n\n`;
    else part = `${sentence(rng, 12, 60)}\n\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
}

/**
 * @param {import("./lib.js").Rng} rng
 * @param {number} min
 * @param {number} max
 */
function sentence(rng, min, max) {
  const count = rng.int(min, max);
  const words = [];
  for (let i = 0; i < count; i++) words.push(rng.pick(WORDS));
  const text = words.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * One skill or command file: frontmatter (quoted, lists, block scalars, maps, YAML-heavy, conditional or malformed; some CRLF or BOM) and a 1–20 KB body.
 * @param {import("./lib.js").Rng} rng
 * @param {string} pool
 * @param {string} name
 * @param {"skills" | "commands"} layout
 * @param {CorpusStats} stats
 * @returns {string | Buffer}
 */
function skillFile(rng, pool, name, layout, stats) {
  const bodyBytes = rng.int(BODY_BYTES.min, BODY_BYTES.max);
  const offset = rng.int(0, pool.length - 1);
  const text = (pool + pool).slice(offset, offset + bodyBytes);
  const body = `# ${name}\n\n${text.slice(text.indexOf("\n") + 1)}\n`;
  const lines = [];
  if (layout === "skills" && rng.chance(0.9)) lines.push(`name: ${name.split(":").pop()}`);
  const description = `${sentence(rng, 8, 30)} Use when the user asks to ${sentence(rng, 3, 10).toLowerCase()}`;
  if (rng.chance(YAML_HEAVY_SHARE)) {
    stats.yamlHeavy++;
    lines.push(...yamlHeavyFields(rng, description));
  } else if (!rng.chance(NO_DESCRIPTION_SHARE)) {
    lines.push(...descriptionField(rng, description, stats));
  }
  if (!lines.some((l) => l.startsWith("allowed-tools:")) && rng.chance(ALLOWED_TOOLS_SHARE)) {
    stats.lists++;
    lines.push(allowedTools(rng));
  }
  if (!lines.some((l) => l.startsWith("metadata:")) && rng.chance(METADATA_SHARE)) {
    stats.maps++;
    lines.push(
      `metadata:\n  author: team-${rng.pick(NOUNS)}\n  version: "${rng.int(1, 3)}.${rng.int(0, 9)}"\n  category: ${rng.pick(WORDS)}`,
    );
  }
  if (rng.chance(0.2)) lines.push("license: MIT");
  if (rng.chance(0.1)) lines.push(`version: 1.${rng.int(0, 9)}.${rng.int(0, 20)}`);
  if (rng.chance(0.05)) lines.push(`model: ${rng.pick(["sonnet", "opus", "haiku", "inherit"])}`);
  if (rng.chance(0.05)) lines.push("argument-hint: <file> [options]");
  if (rng.chance(0.03)) lines.push("context: fork");
  if (rng.chance(0.03)) lines.push("disable-model-invocation: true");
  if (layout === "skills" && rng.chance(PATHS_SHARE)) {
    stats.paths++;
    lines.push(
      rng.chance(0.5) ? "paths: src/**/*.ts, test/**/*.ts" : 'paths:\n  - "**/*.sql"\n  - migrations/**',
    );
  }

  if (rng.chance(MALFORMED_SHARE)) {
    const kind = rng.pick(/** @type {const} */ (["badYaml", "unclosed", "binary"]));
    stats.malformed[kind]++;
    if (kind === "badYaml") {
      lines.push(rng.chance(0.5) ? "when_to_use: deploys: staging: prod" : "allowed-tools: [Read, Grep");
      return `---\n${lines.join("\n")}\n---\n\n${body}`;
    }
    if (kind === "unclosed") return `---\n${lines.join("\n")}\n\n${body}`;
    const head = Buffer.from(`---\n${lines.join("\n")}\n---\n\n`, "utf8");
    const tail = Buffer.from(body, "utf8");
    // NULs and stray high bytes in the body only, so the frontmatter still parses.
    for (let i = 0; i < 64; i++) tail[rng.int(0, tail.length - 1)] = rng.chance(0.5) ? 0 : rng.int(128, 255);
    const bytes = Buffer.concat([head, tail]);
    return bytes;
  }
  const file = `---\n${lines.join("\n")}\n---\n\n${body}`;
  const crlf = rng.chance(CRLF_SHARE);
  const bom = rng.chance(BOM_SHARE);
  if (crlf) stats.crlf++;
  if (bom) stats.bom++;
  return `${bom ? "\uFEFF" : ""}${crlf ? file.replaceAll("\n", "\r\n") : file}`;
}

/**
 * The description as real skills write it: mostly double-quoted (sometimes with escapes), some single-quoted,
 * plain, or a `|` / `>` block scalar.
 * @param {import("./lib.js").Rng} rng
 * @param {string} description
 * @param {CorpusStats} stats
 * @returns {string[]}
 */
function descriptionField(rng, description, stats) {
  const roll = rng.next();
  if (roll < DESCRIPTION_STYLES.doubleQuoted) {
    stats.quoted++;
    const text = rng.chance(0.2) ? `${description} (e.g. "ship it": \\o/)` : description;
    return [`description: ${JSON.stringify(text)}`];
  }
  if (roll < DESCRIPTION_STYLES.doubleQuoted + DESCRIPTION_STYLES.singleQuoted) {
    stats.quoted++;
    return [`description: '${description.replaceAll("'", "''")} (it''s safe)'`];
  }
  if (roll < DESCRIPTION_STYLES.doubleQuoted + DESCRIPTION_STYLES.singleQuoted + DESCRIPTION_STYLES.block) {
    stats.blockScalars++;
    const half = Math.floor(description.length / 2);
    const cut = description.indexOf(" ", half);
    const [first, second] =
      cut < 0 ? [description, ""] : [description.slice(0, cut), description.slice(cut + 1)];
    return [`description: ${rng.pick(["|", ">", ">-", "|-"])}\n  ${first}\n  ${second}`];
  }
  return [`description: ${description}`];
}

/**
 * `allowed-tools` as a flow list, a block list (quoted items where they hold `(`) or a comma string.
 * @param {import("./lib.js").Rng} rng
 * @returns {string}
 */
function allowedTools(rng) {
  const tools = [rng.pick(TOOLS), rng.pick(TOOLS), rng.pick(TOOLS)];
  const quote = (/** @type {string} */ t) => (t.includes("(") ? `"${t}"` : t);
  switch (rng.int(0, 2)) {
    case 0:
      return `allowed-tools: [${tools.map(quote).join(", ")}]`;
    case 1:
      return `allowed-tools:\n${tools.map((t) => `  - ${quote(t)}`).join("\n")}`;
    default:
      return `allowed-tools: ${tools.join(", ")}`;
  }
}

/**
 * Frontmatter only a full YAML parser reads: nested maps, flow maps, anchors.
 * @param {import("./lib.js").Rng} rng
 * @param {string} description
 * @returns {string[]}
 */
function yamlHeavyFields(rng, description) {
  switch (rng.int(0, 2)) {
    case 0:
      return [`description: ${description}`, `metadata:\n  owner: team-${rng.pick(NOUNS)}\n  tags: [a, b]`];
    case 1:
      return [`description: "${description}"`, `hooks:\n  PreToolUse:\n    - matcher: Bash`];
    default:
      return [`description: &d "${description}"`, "metadata: { owner: me, tier: 2 }"];
  }
}
