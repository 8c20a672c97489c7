import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";

/**
 * What a skill's code needs, read from its files (no code is run): the Python modules its scripts import, the
 * commands its shell scripts and its SKILL.md's shell blocks call, and the scripts only Node runs. Used by the
 * corpus test to say which real skills run in the simulated sandbox tier and which need real binaries or
 * third-party Python packages (docs/sandbox.md). A heuristic, checked by hand: it reads `import x` / `from x
 * import`, and the first word of each simple command.
 */

/** One code file of a skill, by path relative to the skill's root. */
export type CodeFile =
  | {
      kind: "python";
      path: string;
      /** Top-level modules it imports that are not the skill's own. */
      imports: string[];
      spawns: boolean;
      /** The skill's own Python files it imports (`from scripts.utils import x`: scripts/utils.py). */
      uses: string[];
    }
  | { kind: "shell"; path: string; commands: string[] }
  | { kind: "node"; path: string }
  | { kind: "skill-md"; path: "SKILL.md"; commands: string[] };

/** Python modules whose use means starting another program: they cannot do their work in the simulated tier. */
export const SPAWNING_MODULES: readonly string[] = ["subprocess", "multiprocessing", "pty"];

/** Shell words that are syntax, not commands. */
const SHELL_WORDS = new Set(
  (
    "if then else elif fi for in do done while until case esac function return local export set unset exit " +
    "shift break continue declare readonly source . [ [[ ]] ] { } ( ) ! true false eval exec trap wait shopt " +
    "select time let read printf echo cd pwd test type command builtin alias"
  ).split(" "),
);

/**
 * The modules a Python source imports, dotted as written (`import a.b, c` and `from a.b import x`; not relative
 * ones, not `__future__`). Pure.
 */
export function pythonImports(source: string): string[] {
  const names = new Set<string>();
  for (const line of source.split("\n")) {
    const from = /^\s*from\s+([A-Za-z_][\w.]*)\s+import\b/.exec(line);
    if (from?.[1] !== undefined) names.add(from[1]);
    const imported = /^\s*import\s+([\w., ]+?)\s*(?:#.*)?$/.exec(line);
    for (const part of imported?.[1]?.split(",") ?? []) {
      const name = part.trim().split(/\s+/)[0];
      if (name !== undefined && name !== "") names.add(name);
    }
  }
  names.delete("__future__");
  return [...names].sort();
}

/** A dotted module name's top-level package. Pure. */
function topLevel(name: string): string {
  return name.split(".")[0] ?? name;
}

/**
 * The commands a shell text calls: the first word of each simple command (split at `|`, `;`, `&&`, `||`,
 * `$(` and backticks, quoted text and here-documents left out), past variable assignments, `sudo` and `case`
 * arms, leaving out syntax, arithmetic, the text's own functions, script files (`x.sh`, `x.py`) and anything
 * not spelt like a program (lower case). Paths keep their last segment. Pure.
 */
export function shellCommands(text: string): string[] {
  const names = new Set<string>();
  const functions = new Set<string>();
  let heredoc: string | undefined;
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    if (heredoc !== undefined) {
      if (raw.trim() === heredoc) heredoc = undefined;
      continue;
    }
    const opens = /<<-?\s*['"]?(\w+)['"]?/.exec(raw);
    if (opens?.[1] !== undefined) heredoc = opens[1];
    const defined = /^\s*(?:function\s+)?([\w-]+)\s*\(\)/.exec(raw);
    if (defined?.[1] !== undefined) functions.add(defined[1]);
    lines.push(raw);
  }
  const code = lines.join("\n");
  // A program looked up by name (`command -v pdflatex`, `which jq`) is one the script may run.
  for (const looked of code.matchAll(/(?:command\s+-v|which)\s+([a-z][\w.-]*)/g)) {
    if (looked[1] !== undefined) names.add(looked[1]);
  }
  // Quoted text (which may span lines: `node -e "…"`) is an argument, never a command.
  const unquoted = code.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "Q");
  for (const raw of unquoted.split("\n")) {
    const line = raw
      .replace(/^\s*\$\s+/, "")
      .replace(/(^|\s)#.*$/, "")
      // A test's operands (`[[ $x =~ ^(a|b)$ ]]`).
      .replace(/\[\[.*?\]\]/g, "Q")
      // A case arm's patterns (`blue|cyan)`, `*)`).
      .replace(/^\s*[\w*.|Q-]+\)\s*/, "");
    for (const piece of line.split(/\|\||&&|[|;`]|\$\(/)) {
      const trimmed = piece.trim();
      // Arithmetic: `(( n++ ))`, `$(( a - b ))`.
      if (trimmed.startsWith("(")) continue;
      const words = trimmed.split(/\s+/);
      let word = words.shift();
      while (word !== undefined && (/^[A-Za-z_]\w*=/.test(word) || word === "sudo" || word === "then"))
        word = words.shift();
      if (word === undefined || word === "" || SHELL_WORDS.has(word)) continue;
      const name = word.replace(/^[(]+|[);]+$/g, "");
      const command = name.includes("/") ? basename(name) : name;
      if (!/^[a-z_][a-z0-9._-]*$/.test(command) || /\.(?:sh|py)$/.test(command) || functions.has(command))
        continue;
      names.add(command);
    }
  }
  return [...names].sort();
}

/** The fenced shell blocks (```bash, ```sh, ```shell, ```console) of a markdown text, joined. Pure. */
export function shellBlocks(markdown: string): string {
  const blocks: string[] = [];
  const fence = /^```(?:bash|sh|shell|console)\s*\n([\s\S]*?)^```/gm;
  for (let match = fence.exec(markdown); match !== null; match = fence.exec(markdown)) {
    blocks.push(match[1] ?? "");
  }
  return blocks.join("\n");
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(path);
      } else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** The code files of the skill in `dir`, and the names its own Python files and packages answer to. */
export function skillCode(dir: string): { files: CodeFile[]; localModules: Set<string> } {
  const paths = filesUnder(dir);
  const localModules = new Set<string>();
  for (const path of paths) {
    if (!path.endsWith(".py")) continue;
    localModules.add(basename(path, ".py"));
    for (let up = dirname(path); up !== "."; up = dirname(up)) localModules.add(basename(up));
  }
  const files: CodeFile[] = [];
  const skillMd = shellCommands(shellBlocks(readFileSync(join(dir, "SKILL.md"), "utf8")));
  if (skillMd.length > 0) files.push({ kind: "skill-md", path: "SKILL.md", commands: skillMd });
  for (const path of paths) {
    const text = (): string => readFileSync(join(dir, path), "utf8");
    if (path.endsWith(".py")) {
      const imports = pythonImports(text());
      const local = imports.filter((name) => localModules.has(topLevel(name)));
      files.push({
        kind: "python",
        path,
        imports: [
          ...new Set(imports.filter((name) => !localModules.has(topLevel(name))).map(topLevel)),
        ].sort(),
        spawns: imports.some((name) => SPAWNING_MODULES.includes(topLevel(name))),
        uses: paths.filter(
          (other) =>
            other !== path &&
            other.endsWith(".py") &&
            local.some((name) => name.split(".").includes(basename(other, ".py"))),
        ),
      });
    } else if (path.endsWith(".sh")) files.push({ kind: "shell", path, commands: shellCommands(text()) });
    else if (/\.(?:js|mjs|cjs|ts)$/.test(path)) files.push({ kind: "node", path });
  }
  return { files, localModules };
}

/** What the simulated tier offers, as probed in it: Python modules that import, commands that exist. */
export interface TierOffer {
  modules: ReadonlySet<string>;
  commands: ReadonlySet<string>;
}

/** Why one code file cannot do its work in the tier, or nothing when it can. */
export interface CodeNeeds {
  path: string;
  /** Third-party Python packages its imports need. */
  packages: string[];
  /** Programs it calls that the tier does not have (`subprocess`: it starts other programs). */
  binaries: string[];
}

/**
 * What each code file of a skill needs that the tier does not offer; a Python file also needs what the skill's
 * own modules it imports need. A command named after one of the skill's own scripts (`check.sh`, `calc.py`) is
 * the skill's, not a binary. Pure.
 */
export function codeNeeds(files: readonly CodeFile[], offer: TierOffer): CodeNeeds[] {
  const own = new Set(files.map((f) => basename(f.path)));
  const missing = (commands: readonly string[]) =>
    commands.filter((c) => !offer.commands.has(c) && !own.has(c));
  const python = new Map(files.flatMap((f) => (f.kind === "python" ? [[f.path, f] as const] : [])));
  /** The Python files `path` runs: itself and, transitively, the skill's own modules it imports. */
  const closure = (path: string): string[] => {
    const seen = new Set<string>([path]);
    const queue = [path];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const used of python.get(next)?.uses ?? []) {
        if (!seen.has(used)) {
          seen.add(used);
          queue.push(used);
        }
      }
    }
    return [...seen];
  };
  return files.map((file) => {
    switch (file.kind) {
      case "python": {
        const runs = closure(file.path).flatMap((p) => {
          const f = python.get(p);
          return f === undefined ? [] : [f];
        });
        const packages = new Set(runs.flatMap((f) => f.imports.filter((name) => !offer.modules.has(name))));
        return {
          path: file.path,
          packages: [...packages].sort(),
          binaries: runs.some((f) => f.spawns) ? ["subprocess"] : [],
        };
      }
      case "shell":
      case "skill-md":
        return { path: file.path, packages: [], binaries: missing(file.commands) };
      default:
        return { path: file.path, packages: [], binaries: ["node"] };
    }
  });
}
