import { shellSplit } from "./shell-split.js";

/**
 * Values for the `${…}` variables of SPEC §5. A variable left undefined is not substituted: its placeholder stays
 * as written (so `${CLAUDE_PLUGIN_ROOT}` in a non-plugin skill is left alone).
 */
export interface SubstitutionVars {
  /** `${CLAUDE_SKILL_DIR}` and `${SKILL_DIR}`: the skill's base directory. */
  skillDir?: string;
  /** `${CLAUDE_SESSION_ID}`. */
  sessionId?: string;
  /** `${CLAUDE_PROJECT_DIR}`. */
  projectDir?: string;
  /** `${CLAUDE_PLUGIN_ROOT}`: plugin skills only. */
  pluginRoot?: string;
  /** `${CLAUDE_PLUGIN_DATA}`: plugin skills only. */
  pluginData?: string;
  /** `${user_config.KEY}`: a plugin skill's non-sensitive settings (a key without a value stays as written). */
  userConfig?: Readonly<Record<string, string>>;
}

/** Every `${NAME}` variable the substitution knows, with the field that holds its value. */
export const SUBSTITUTION_VARIABLES = {
  CLAUDE_SKILL_DIR: "skillDir",
  SKILL_DIR: "skillDir",
  CLAUDE_SESSION_ID: "sessionId",
  CLAUDE_PROJECT_DIR: "projectDir",
  CLAUDE_PLUGIN_ROOT: "pluginRoot",
  CLAUDE_PLUGIN_DATA: "pluginData",
} as const satisfies Record<string, keyof SubstitutionVars>;

function variableValue(name: string, vars: SubstitutionVars): string | undefined {
  for (const [variable, field] of Object.entries(SUBSTITUTION_VARIABLES)) {
    if (variable === name) return vars[field];
  }
  return undefined;
}

/**
 * An argument placeholder about to be replaced, or an escaped one about to become literal text.
 * `all` is `$ARGUMENTS`; `positional` is `$N`, `$ARGUMENTS[N]` or a named argument (`index` is its position).
 */
export type Placeholder =
  | { kind: "all"; value: string }
  | { kind: "positional"; index: number; value: string }
  | { kind: "escaped"; literal: string };

/**
 * Turns a placeholder into the text that replaces it. `before` is the output produced so far for this text
 * (lets a shell encoder see the quoting context). The default pastes values and literals unchanged.
 */
export type PlaceholderEncoder = (placeholder: Placeholder, before: string) => string;

export interface SubstituteOptions {
  /** The raw args string as the user or model gave it. */
  args: string;
  /** Names from the `arguments:` frontmatter, in position order. */
  argumentNames?: readonly string[];
  vars?: SubstitutionVars;
  /** How argument values and escapes are written; default: as they are. */
  encode?: PlaceholderEncoder;
}

export interface Substitution {
  text: string;
  /** True when an argument placeholder was replaced (variables and escapes do not count). */
  substituted: boolean;
}

/** A usable `arguments:` name: starts with a letter or `_`, then letters, digits, `_` or `-`. */
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const rawEncoder: PlaceholderEncoder = (placeholder) =>
  placeholder.kind === "escaped" ? placeholder.literal : placeholder.value;

/** The names that can be placeholders, longest first (so `$file` never eats `$filename`), with positions. */
function usableNames(argumentNames: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>();
  argumentNames.forEach((name, index) => {
    if (ARGUMENT_NAME.test(name) && name !== "ARGUMENTS" && !positions.has(name)) positions.set(name, index);
  });
  return new Map([...positions].sort(([a], [b]) => b.length - a.length));
}

function placeholderPattern(names: Iterable<string>): RegExp {
  const nameList = [...names];
  const named = nameList.length > 0 ? `(?<name>${nameList.join("|")})(?![\\[\\w])|` : "";
  const variables = Object.keys(SUBSTITUTION_VARIABLES).join("|");
  const body = `ARGUMENTS\\[(?<index>\\d+)\\]|${named}ARGUMENTS|(?<num>\\d+)(?!\\w)|\\{(?<var>${variables})\\}|\\{user_config\\.(?<cfg>[A-Za-z0-9_-]+)\\}`;
  return new RegExp(`(?<esc>\\\\)?\\$(?:${body})`, "g");
}

/**
 * Replaces the placeholders of SPEC §5 in one left-to-right pass (inserted values are never scanned again):
 * `$ARGUMENTS` → the raw args; `$ARGUMENTS[N]` and `$N` (not followed by a word char) → the N-th shell-split
 * arg, 0-based, left as written when missing; `$name` for a name in `arguments:` (not followed by `[` or a word
 * char) → its positional arg or the empty string; `${CLAUDE_SKILL_DIR}`, `${SKILL_DIR}`, `${CLAUDE_SESSION_ID}`,
 * `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and a plugin's
 * `${user_config.KEY}` → their value when provided. A backslash before any of these forms (`\$ARGUMENTS`, `\$0`, `\${CLAUDE_SKILL_DIR}`) yields the form as an
 * `escaped` placeholder (literal text without the backslash by default). Anything else (`${ARGUMENTS}`,
 * `$CLAUDE_SKILL_DIR`, `${UNKNOWN}`, `$HOME`) is left as written. Variables are pasted raw, never encoded.
 * Pure; never throws.
 */
export function substitute(text: string, options: SubstituteOptions): Substitution {
  const encode = options.encode ?? rawEncoder;
  const vars = options.vars ?? {};
  const words = shellSplit(options.args);
  const names = usableNames(options.argumentNames ?? []);
  const pattern = placeholderPattern(names.keys());
  let out = "";
  let last = 0;
  let substituted = false;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    out += text.slice(last, match.index);
    last = match.index + match[0].length;
    const groups = match.groups ?? {};
    const written = groups.esc === undefined ? match[0] : match[0].slice(1);
    if (groups.esc !== undefined) {
      out += encode({ kind: "escaped", literal: written }, out);
    } else if (groups.cfg !== undefined) {
      const config = vars.userConfig;
      out +=
        config !== undefined && Object.hasOwn(config, groups.cfg) ? (config[groups.cfg] ?? written) : written;
    } else if (groups.var !== undefined) {
      out += variableValue(groups.var, vars) ?? written;
    } else if (groups.name !== undefined) {
      const index = names.get(groups.name) ?? 0;
      out += encode({ kind: "positional", index, value: words[index] ?? "" }, out);
      substituted = true;
    } else if (groups.index !== undefined || groups.num !== undefined) {
      const index = Number(groups.index ?? groups.num);
      const value = words[index];
      if (value === undefined) {
        out += written;
      } else {
        out += encode({ kind: "positional", index, value }, out);
        substituted = true;
      }
    } else {
      out += encode({ kind: "all", value: options.args }, out);
      substituted = true;
    }
  }
  out += text.slice(last);
  return { text: out, substituted };
}

/**
 * The append rule of SPEC §5: when `args` holds more than whitespace and no argument placeholder was
 * substituted, `⏎⏎ARGUMENTS: {args}` is appended so the model still sees them. Variable substitutions and
 * escapes do not count as using the args (as in Claude Code, where only argument placeholders count).
 */
export function appendUnusedArguments(text: string, args: string, substituted: boolean): string {
  return args.trim() !== "" && !substituted ? `${text}\n\nARGUMENTS: ${args}` : text;
}

/** Substitutes a body with no inline shell (or where shell markers must stay literal), then applies the append rule. */
export function expandBody(body: string, options: SubstituteOptions): string {
  const { text, substituted } = substitute(body, options);
  return appendUnusedArguments(text, options.args, substituted);
}
