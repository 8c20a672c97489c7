import { posix } from "node:path";
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
] as const;
export type LintCode = (typeof LINT_CODES)[number];

export type LintSeverity = "error" | "warning" | "info";

/** One problem found by a lint rule. `file` is relative to the skill dir; `line` is 1-based. */
export interface LintFinding {
  code: LintCode;
  severity: LintSeverity;
  message: string;
  file: string;
  line: number;
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
const PIPE_TO_SHELL = /\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|k|da)?sh\b/g;
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

/** Risky shell (`rm -rf` on broad paths, `curl … | sh`, `chmod 777`) in one file. Pure. */
export function riskyShellRule(file: LintFile): LintFinding[] {
  const out: LintFinding[] = [];
  for (const m of file.text.matchAll(RM_RF)) {
    out.push(finding("risky-rm-rf", "error", `\`${m[0].trim()}\` deletes a broad path`, file, m.index));
  }
  for (const m of file.text.matchAll(PIPE_TO_SHELL)) {
    out.push(
      finding(
        "risky-pipe-to-shell",
        "error",
        "downloads a script and pipes it to a shell: pin and check it instead",
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
    ...[subject.skillMd, ...subject.scripts].flatMap((f) => [...riskyShellRule(f), ...secretRule(f)]),
    ...sideEffectRule(subject.skillMd, subject.skill),
    ...linkRule(subject.skillMd, exists),
    ...descriptionRule(subject.skill, subject.skillMd),
    ...listingCostRule(subject.skill, subject.skillMd, models),
  ];
}
