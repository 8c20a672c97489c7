import { posix } from "node:path";
import type { DiagnosticCode } from "../diagnostics.js";
import type { ListingLimits } from "../listing/budget.js";
import { listingDescription } from "../listing/description.js";
import { displayName, type Skill } from "../skill/skill.js";
import { sideEffectIntents } from "./side-effect-intent.js";

/** Every lint finding code; stable, for CI filters and tests. */
export const LINT_CODES = [
  "risky-rm-rf",
  "risky-pipe-to-shell",
  "risky-chmod-777",
  "secret-literal",
  "side-effect-no-approval",
  "broken-link",
  "escaping-link",
  "absolute-link",
  "description-no-when",
  "listing-cost",
  "listing-cut",
  "risky-eval",
  "base64-blob",
  "hidden-unicode",
  "raw-executable-link",
  "broad-allowed-tools",
] as const;
export type LintCode = (typeof LINT_CODES)[number];

export type LintSeverity = "error" | "warning" | "info";

/**
 * One problem found by a lint rule, or by validation (then `code` is the diagnostic's and `profile` says which
 * validate profile found it). `file` is relative to the skill dir; `line` is 1-based.
 */
export interface LintFinding {
  code: LintCode | DiagnosticCode;
  severity: LintSeverity;
  message: string;
  file: string;
  line: number;
  profile?: "engine" | "spec";
}

/** A text file of a skill: SKILL.md or a file under `scripts/`, its path relative to the skill dir. */
export interface LintFile {
  file: string;
  text: string;
}

/** Share of the 200k-token budget one entry may take before `listing-cost` becomes a warning. */
export const LISTING_SHARE_WARNING = 0.1;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

function finding(
  code: LintCode,
  severity: LintSeverity,
  message: string,
  file: LintFile,
  index: number,
): LintFinding {
  return { code, severity, message, file: file.file, line: lineAt(file.text, index) };
}

/** Targets that make `rm -rf` wipe far more than a skill's own files. */
const BROAD_TARGET = String.raw`(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?|\*|\.\/?\*?|\.\.\/?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\/\*?)`;
const RM_RF = new RegExp(
  String.raw`\brm\s+(?:-[a-zA-Z]*(?:r[a-zA-Z]*f|f[a-zA-Z]*r)[a-zA-Z]*|-[rR]\s+-f|-f\s+-[rR]|--recursive\s+--force|--force\s+--recursive)\s+(?:--\s+)?(["']?)${BROAD_TARGET}\1(?=\s|;|&|\||\)|$)`,
  "gm",
);
const PIPE_TO_SHELL =
  /\b(?:curl|wget|base64\s+(?:-d|-D|--decode))\b[^\n|]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|k|da)?sh\b/g;
/** `sh -c "$(curl …)"`, `bash <(wget …)`, `. <(curl …)`: a download run by a shell without a pipe. */
const SHELL_OF_DOWNLOAD =
  /(?:\b(?:ba|z|k|da)?sh\s+(?:-c\s+)?["']?(?:\$\(|<\(|`)|(?:^|\s)(?:source|\.)\s+<\()\s*(?:curl|wget)\b/gm;
/** PowerShell's download-and-run: `iwr … | iex`, `Invoke-Expression (… DownloadString …)`. */
const POWERSHELL_DOWNLOAD_RUN =
  /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|]*\|\s*(?:iex|Invoke-Expression)\b|\b(?:iex|Invoke-Expression)\b[^\n]*DownloadString/gi;
const CHMOD_777 = /\bchmod\s+(?:-[a-zA-Z]+\s+)*(?:0?777|a\+rwx|ugo\+rwx)\b/g;

const SECRETS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: "AWS access key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "Anthropic API key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  {
    kind: "private key",
    pattern: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY( BLOCK)?-----/g,
  },
  { kind: "GitHub token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
];

/**
 * Risky shell in one file: `rm -rf` on broad paths, a download or a decoded blob run by a shell (`curl … | sh`,
 * `wget … | bash`, `base64 -d … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`, `iwr … | iex`), `chmod 777`, and
 * `eval` of a string or a variable (`risky-eval`). Pure.
 */
export function riskyShellRule(file: LintFile): LintFinding[] {
  const out: LintFinding[] = [];
  for (const m of file.text.matchAll(RM_RF)) {
    out.push(finding("risky-rm-rf", "error", `\`${m[0].trim()}\` deletes a broad path`, file, m.index));
  }
  const runs = [
    ...file.text.matchAll(PIPE_TO_SHELL),
    ...file.text.matchAll(SHELL_OF_DOWNLOAD),
    ...file.text.matchAll(POWERSHELL_DOWNLOAD_RUN),
  ].sort((a, b) => a.index - b.index);
  for (const m of runs) {
    out.push(
      finding(
        "risky-pipe-to-shell",
        "error",
        "downloads (or decodes) a script and runs it in a shell: pin and check it instead",
        file,
        m.index,
      ),
    );
  }
  for (const m of file.text.matchAll(EVAL)) {
    out.push(
      finding(
        "risky-eval",
        "warning",
        `\`${m[0].trim()}\` runs text as code: say what it runs, or run it directly`,
        file,
        m.index,
      ),
    );
  }
  for (const m of file.text.matchAll(CHMOD_777)) {
    out.push(
      finding("risky-chmod-777", "warning", `\`${m[0]}\` makes files writable by anyone`, file, m.index),
    );
  }
  return out;
}

/** Secret literals (AWS keys, `sk-ant-…`, private key headers, GitHub tokens) in one file; masked. Pure. */
export function secretRule(file: LintFile): LintFinding[] {
  const out: LintFinding[] = [];
  for (const { kind, pattern } of SECRETS) {
    for (const m of file.text.matchAll(pattern)) {
      const masked = `${m[0].slice(0, 8)}…`;
      out.push(
        finding("secret-literal", "error", `${kind} literal (${masked}): use an env var`, file, m.index),
      );
    }
  }
  return out;
}

/** `eval` given a string, a variable or a command's output (shell, JS, Python); `eval` in prose is not matched. */
const EVAL = /\beval(?:\s+["'$`]|\()[^\n]{0,40}/g;

/** Contiguous base64 chars that count as a blob: long enough to hide a script, longer than any hash in base64. */
export const MIN_BASE64_BLOB = 120;
const BASE64_RUN = new RegExp(`[A-Za-z0-9+/]{${MIN_BASE64_BLOB},}={0,2}`, "g");

/**
 * Base64 blobs (`base64-blob`, a warning): a run of at least {@link MIN_BASE64_BLOB} base64 chars mixing upper
 * and lower case and digits (a hex hash or a word run is not one). What a blob hides cannot be reviewed. Pure.
 */
export function base64Rule(file: LintFile): LintFinding[] {
  const out: LintFinding[] = [];
  for (const m of file.text.matchAll(BASE64_RUN)) {
    const run = m[0];
    if (!/[A-Z]/.test(run) || !/[a-z]/.test(run) || !/[0-9]/.test(run)) continue;
    out.push(
      finding(
        "base64-blob",
        "warning",
        `a ${run.length}-char base64 blob: what it decodes to cannot be reviewed; ship the file itself`,
        file,
        m.index,
      ),
    );
  }
  return out;
}

/** Bidi controls (embeddings, overrides, isolates): text that displays in another order than it reads. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/** Unicode tag characters: invisible copies of ASCII, a known way to smuggle instructions to a model. */
const TAG_CHAR = /[\u{E0000}-\u{E007F}]/u;
/** Zero-width and invisible format characters (a BOM after the file's start, bidi marks included). */
const ZERO_WIDTH = /[\u200B-\u200F\u2060-\u2064\u061C\uFEFF\u180E]/;
/** A joiner between two non-ASCII chars (emoji sequences, Persian, Indic scripts) is text, not a hidden char. */
const JOINER = /[\u200C\u200D]/;

function hiddenKind(text: string, index: number, char: string): "bidi" | "tag" | "zero-width" | undefined {
  if (BIDI_CONTROL.test(char)) return "bidi";
  if (TAG_CHAR.test(char)) return "tag";
  if (char === "\uFEFF" && index === 0) return undefined;
  if (JOINER.test(char)) {
    const before = text.codePointAt(index - 1) ?? 0;
    const after = text.codePointAt(index + 1) ?? 0;
    if (before > 0x7f || after > 0x7f) return undefined;
  }
  return ZERO_WIDTH.test(char) ? "zero-width" : undefined;
}

const HIDDEN_CANDIDATE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\u061C\uFEFF\u180E\u{E0000}-\u{E007F}]/gu;

/**
 * Hidden Unicode (`hidden-unicode`), one finding per line: bidi controls and tag characters are errors (text that
 * reads other than it shows, or instructions no reviewer sees), zero-width and other invisible characters
 * warnings (a joiner inside emoji or a non-Latin script is left alone). Pure.
 */
export function hiddenUnicodeRule(file: LintFile): LintFinding[] {
  const byLine = new Map<number, { kinds: Set<string>; index: number; codes: Set<string> }>();
  for (const m of file.text.matchAll(HIDDEN_CANDIDATE)) {
    const kind = hiddenKind(file.text, m.index, m[0]);
    if (kind === undefined) continue;
    const line = lineAt(file.text, m.index);
    const entry = byLine.get(line) ?? { kinds: new Set(), index: m.index, codes: new Set() };
    entry.kinds.add(kind);
    entry.codes.add(`U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);
    byLine.set(line, entry);
  }
  const out: LintFinding[] = [];
  for (const { kinds, index, codes } of byLine.values()) {
    const severe = kinds.has("bidi") || kinds.has("tag");
    const what = [...kinds]
      .map((k) => (k === "bidi" ? "bidi controls" : k === "tag" ? "tag characters" : "zero-width characters"))
      .join(", ");
    out.push(
      finding(
        "hidden-unicode",
        severe ? "error" : "warning",
        `hidden ${what} (${[...codes].slice(0, 4).join(" ")}): what a reviewer sees is not what the model reads`,
        file,
        index,
      ),
    );
  }
  return out;
}

/** File types a link to which is a program to run, not a document. */
export const EXECUTABLE_EXTENSIONS = [
  "sh",
  "bash",
  "zsh",
  "command",
  "ps1",
  "psm1",
  "bat",
  "cmd",
  "vbs",
  "exe",
  "msi",
  "scr",
  "dll",
  "jar",
  "dmg",
  "pkg",
  "deb",
  "rpm",
  "appimage",
  "run",
  "bin",
] as const;
const RAW_EXECUTABLE_URL = new RegExp(
  `\\bhttps?:\\/\\/[^\\s/)"'<>\\]]+\\/[^\\s)"'<>?#\\]]*\\.(?:${EXECUTABLE_EXTENSIONS.join("|")})(?=[?#)"'<>\\]\\s]|$)`,
  "gim",
);

/**
 * Links to raw executables (`raw-executable-link`, a warning): an http(s) URL whose path ends in a script or
 * program type ({@link EXECUTABLE_EXTENSIONS}): what it serves can change after review. Pure.
 */
export function rawExecutableLinkRule(file: LintFile): LintFinding[] {
  const out: LintFinding[] = [];
  for (const m of file.text.matchAll(RAW_EXECUTABLE_URL)) {
    out.push(
      finding(
        "raw-executable-link",
        "warning",
        `${m[0]} is a program fetched from the web: what it serves can change after review; ship it in scripts/ or pin a checksum`,
        file,
        m.index,
      ),
    );
  }
  return out;
}

/** `allowed-tools` entries that grant every command or every tool. */
const BROAD_TOOL = /^(?:\*|Bash|Bash\(\s*\**\s*\)|Bash\(\s*:?\*\s*\))$/;

/**
 * Broad `allowed-tools` (`broad-allowed-tools`, a warning): `*`, bare `Bash` or `Bash(*)` pre-approve any
 * command while the skill is active. One finding per entry, at the `allowed-tools:` line. Pure.
 */
export function broadToolsRule(skill: Pick<Skill, "allowedTools">, skillMd: LintFile): LintFinding[] {
  const where = Math.max(skillMd.text.search(/^allowed-tools\s*:/m), 0);
  return skill.allowedTools
    .filter((tool) => BROAD_TOOL.test(tool.trim()))
    .map((tool) =>
      finding(
        "broad-allowed-tools",
        "warning",
        `allowed-tools grants \`${tool}\`: any command runs without asking while the skill is active; grant the commands it needs (\`Bash(git status:*)\`)`,
        skillMd,
        where,
      ),
    );
}

const APPROVAL =
  /\b(?:confirm(?:s|ation)?|approv(?:e|al|es)|ask(?:s)? (?:the )?user|permission|(?:wait|check) (?:for|with) the user|before (?:proceeding|continuing|running)|dry[- ]run)\b/i;

/**
 * A skill that performs side effects (deploys, pushes, publishes, deletes, sends, writes files: verbs it is told
 * to act on, side-effect commands, tools granted that write; see `sideEffectIntents`) but has no approval step:
 * neither `disable-model-invocation: true` nor text asking the user to confirm. A verb only mentioned ("before
 * merging") is no side effect. One finding, at the first sign. Pure.
 */
export function sideEffectRule(
  skillMd: LintFile,
  skill: Pick<Skill, "disableModelInvocation" | "allowedTools">,
): LintFinding[] {
  if (skill.disableModelInvocation || APPROVAL.test(skillMd.text)) return [];
  const intents = sideEffectIntents(skillMd.text, skill.allowedTools);
  const first = intents[0];
  if (first === undefined) return [];
  const what = [...new Set(intents.map((i) => i.what))].slice(0, 4);
  return [
    finding(
      "side-effect-no-approval",
      "warning",
      `side effects (${what.join(", ")}) with no approval step: set disable-model-invocation: true or ask the user to confirm`,
      skillMd,
      first.index,
    ),
  ];
}

const MD_LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^"'\n]*["'])?\s*\)/g;
const BARE_REF = /(^|[\s"'`(=:,]|\}\/)((?:references|scripts|assets)\/[\w./-]*[\w-])/gm;
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

function checkTarget(
  target: string,
  file: LintFile,
  index: number,
  exists: (path: string) => boolean,
  missing: LintSeverity,
): LintFinding | undefined {
  let path = target.replace(/[#?].*$/, "");
  if (path === "" || SCHEME.test(path) || path.includes("${") || path.includes("$ARGUMENTS"))
    return undefined;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Kept as written: a stray `%` is a plain char in a path.
  }
  if (path.startsWith("/") || path.startsWith("~")) {
    return finding(
      "absolute-link",
      "warning",
      `absolute path ${target}: it will not exist on other machines`,
      file,
      index,
    );
  }
  const fromDir = posix.dirname(file.file);
  const normal = posix.normalize(posix.join(fromDir, path));
  if (normal === ".." || normal.startsWith("../")) {
    return finding("escaping-link", "error", `${target} leaves the skill dir`, file, index);
  }
  const clean = normal.replace(/\/$/, "");
  if (clean === "." || exists(clean)) return undefined;
  return finding("broken-link", missing, `${target} does not exist in the skill dir`, file, index);
}

/**
 * Markdown links and bare `references/…`, `scripts/…`, `assets/…` paths that do not exist (`broken-link`: an error
 * for a link, a warning for a bare mention, which may be an example), leave the skill dir (`escaping-link`) or
 * are absolute (`absolute-link`; links only). URLs, anchors and `${…}` paths are skipped.
 * `exists` answers for paths relative to the skill dir (files and dirs). Pure.
 */
export function linkRule(file: LintFile, exists: (path: string) => boolean): LintFinding[] {
  const out: LintFinding[] = [];
  const seen = new Set<string>();
  for (const m of file.text.matchAll(MD_LINK)) {
    const target = m[1] ?? "";
    const f = checkTarget(target, file, m.index, exists, "error");
    if (f !== undefined) {
      out.push(f);
      seen.add(target);
    }
  }
  for (const m of file.text.matchAll(BARE_REF)) {
    const target = m[2] ?? "";
    if (seen.has(target)) continue;
    const f = checkTarget(target, file, m.index + (m[1] ?? "").length, exists, "warning");
    if (f !== undefined) {
      out.push(f);
      seen.add(target);
    }
  }
  return out;
}

const WHEN_CUE =
  /\b(?:use (?:this |it )?(?:skill )?(?:when|whenever|if|for|to|after|before|on)|when (?:the )?(?:user|you|asked|someone|working|a user|users|claude|needed|editing|writing|creating|reviewing)|whenever|if the user|trigger(?:s|ed)? (?:when|on|by)|invoke (?:when|for|this)|useful (?:when|for)|helpful (?:when|for)|applies (?:when|to)|for (?:requests|tasks|questions) (?:about|that|involving))\b/i;

/** A description that does not say when to use the skill (no "use when", "when the user"… cue). Pure. */
export function descriptionRule(
  skill: Pick<Skill, "description" | "whenToUse" | "descriptionFromBody">,
  skillMd: LintFile,
): LintFinding[] {
  const whenToUse = skill.whenToUse?.trim() ?? "";
  if (whenToUse !== "" || WHEN_CUE.test(skill.description)) return [];
  const where = skillMd.text.search(/^description\s*:/m);
  const message = skill.descriptionFromBody
    ? "no description in the frontmatter: add one that says what the skill does and when to use it"
    : 'the description does not say when to use the skill: add a cue such as "Use when …"';
  return [finding("description-no-when", "warning", message, skillMd, Math.max(where, 0))];
}

/** The listing limits a rule compares against, per model class. */
export interface ListingModels {
  "200k": ListingLimits;
  "1M": ListingLimits;
}

/** What one skill's listing entry costs against one model's limits. */
export interface ListingCost {
  /** Chars of the entry line as sent (`- {name}: {desc}`), 0 for a skill that is not listed. */
  chars: number;
  budget: number;
  /** `chars / budget` (1 when the budget is 0). */
  share: number;
  /** Why the model would see less than the whole description, if it would. */
  cut?: "description-capped" | "over-budget";
}

/**
 * The listing entry's cost for one model's limits: its chars, the share of the budget, and whether it would be
 * cut (the description over the per-description cap, or the entry alone over the budget: name only). A skill
 * with `disable-model-invocation` is not listed and costs nothing. Pure.
 */
export function listingCost(
  skill: Pick<Skill, "name" | "alias" | "description" | "whenToUse" | "disableModelInvocation">,
  limits: ListingLimits,
): ListingCost {
  if (skill.disableModelInvocation) return { chars: 0, budget: limits.budget, share: 0 };
  const full = listingDescription(skill, Number.MAX_SAFE_INTEGER);
  const shown = listingDescription(skill, limits.maxDescChars);
  const chars = (shown === "" ? `- ${displayName(skill)}` : `- ${displayName(skill)}: ${shown}`).length;
  const cost: ListingCost = {
    chars,
    budget: limits.budget,
    share: limits.budget > 0 ? chars / limits.budget : 1,
  };
  if (full.length > limits.maxDescChars) cost.cut = "description-capped";
  else if (chars > limits.budget) cost.cut = "over-budget";
  return cost;
}

/**
 * What the skill's listing entry costs on 200k- and 1M-token models (see {@link listingCost}): `listing-cost`
 * gives the chars and the share of each budget, a warning when the entry takes {@link LISTING_SHARE_WARNING} or
 * more of the 200k budget, info otherwise; `listing-cut` (a warning per model) when the model would see it cut.
 * Pure.
 */
export function listingCostRule(
  skill: Pick<Skill, "name" | "alias" | "description" | "whenToUse" | "disableModelInvocation">,
  skillMd: LintFile,
  models: ListingModels,
): LintFinding[] {
  if (skill.disableModelInvocation) {
    return [
      finding(
        "listing-cost",
        "info",
        "not listed (disable-model-invocation): costs no listing budget",
        skillMd,
        0,
      ),
    ];
  }
  const out: LintFinding[] = [];
  const parts: string[] = [];
  for (const model of ["200k", "1M"] as const) {
    const limits = models[model];
    const cost = listingCost(skill, limits);
    parts.push(
      `${model}: ${cost.chars} chars, ${(cost.share * 100).toFixed(1)}% of the ${cost.budget}-char budget`,
    );
    if (cost.cut === "description-capped") {
      const length = listingDescription(skill, Number.MAX_SAFE_INTEGER).length;
      out.push(
        finding(
          "listing-cut",
          "warning",
          `${model}: the description is ${length} chars, over the ${limits.maxDescChars}-char cap: the model sees it cut`,
          skillMd,
          0,
        ),
      );
    } else if (cost.cut === "over-budget") {
      out.push(
        finding(
          "listing-cut",
          "warning",
          `${model}: the entry alone is over the budget: listed by name only`,
          skillMd,
          0,
        ),
      );
    }
  }
  const share200k = listingCost(skill, models["200k"]).share;
  const severity = share200k >= LISTING_SHARE_WARNING ? "warning" : "info";
  out.unshift(finding("listing-cost", severity, `listing entry ${parts.join("; ")}`, skillMd, 0));
  return out;
}

/** Everything the rules need about one skill, read beforehand (see `collectSkill`). */
export interface LintSubject {
  skill: Pick<
    Skill,
    | "name"
    | "alias"
    | "description"
    | "whenToUse"
    | "descriptionFromBody"
    | "disableModelInvocation"
    | "allowedTools"
  >;
  /** SKILL.md's whole text, `file` "SKILL.md". */
  skillMd: LintFile;
  /** Text files under `scripts/`. */
  scripts: LintFile[];
  /** Paths relative to the skill dir (files and dirs) that exist. */
  paths: ReadonlySet<string>;
}

/** Runs every rule on one skill; findings in rule order, then file and line order within a rule. Pure. */
export function lintSkill(subject: LintSubject, models: ListingModels): LintFinding[] {
  const exists = (p: string) => subject.paths.has(p);
  return [
    ...[subject.skillMd, ...subject.scripts].flatMap((f) => [
      ...riskyShellRule(f),
      ...secretRule(f),
      ...hiddenUnicodeRule(f),
      ...base64Rule(f),
      ...rawExecutableLinkRule(f),
    ]),
    ...broadToolsRule(subject.skill, subject.skillMd),
    ...sideEffectRule(subject.skillMd, subject.skill),
    ...linkRule(subject.skillMd, exists),
    ...descriptionRule(subject.skill, subject.skillMd),
    ...listingCostRule(subject.skill, subject.skillMd, models),
  ];
}
