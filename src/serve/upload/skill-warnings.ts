import { parseHooksConfig } from "../../hooks/schema.js";
import { hasInlineShell } from "../../inline/shell-regions.js";
import type { SandboxTier } from "../../sandbox/sandbox.js";
import { parseFrontmatter } from "../../skill/frontmatter.js";
import { splitFrontmatter } from "../../skill/frontmatter-core.js";
import type { SkillFile } from "../store/skill-upload.js";

/** What a served skill asks for that a server whose sessions run no code (`serve --sandbox none`) will not do. */
export type SkillWarningCode = "inline-shell-not-run" | "hooks-not-run" | "scripts-not-run";

/** One such thing, as a skill version's `warnings` (upload answer, version retrieve, web page) list it. */
export interface SkillWarning {
  code: SkillWarningCode;
  message: string;
  /** The file that asks for it, relative to the skill's root. */
  file: string;
}

/** Files that look like programs to run: by extension, or a `#!` first line. */
const SCRIPT_EXTENSION = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1)$/i;

/** At most this many script paths are named in one warning. */
const MAX_NAMED_SCRIPTS = 5;

function isScript(file: SkillFile): boolean {
  if (file.path === "SKILL.md") return false;
  return SCRIPT_EXTENSION.test(file.path) || (file.content[0] === 0x23 && file.content[1] === 0x21);
}

/**
 * What a skill's files ask for that a served session whose sandbox tier runs no code (`none`) refuses: inline
 * shell in SKILL.md's body (`` !`cmd` ``, ```` ```! ```` blocks), command hooks in its frontmatter's `hooks:`,
 * and script files. A tier that runs code (simulated, os, host) refuses none of them, so nothing is listed. Pure.
 */
export function servedSkillWarnings(files: readonly SkillFile[], tier: SandboxTier): SkillWarning[] {
  if (tier !== "none") return [];
  const warnings: SkillWarning[] = [];
  const skillMd = files.find((f) => f.path === "SKILL.md");
  const split = splitFrontmatter(skillMd === undefined ? "" : Buffer.from(skillMd.content).toString("utf8"));
  if (hasInlineShell(split.body)) {
    warnings.push({
      code: "inline-shell-not-run",
      message:
        "its inline shell does not run on this server (it runs no code: serve --sandbox none): invoking it answers with that refusal",
      file: "SKILL.md",
    });
  }
  const hooks = split.frontmatter === undefined ? undefined : parseFrontmatter(split.frontmatter).data.hooks;
  // http and prompt hooks need no shell: only command hooks are left out.
  const groups = Object.values(parseHooksConfig(hooks).config).flat();
  if (groups.some((group) => group.hooks.some((hook) => hook.type === "command"))) {
    warnings.push({
      code: "hooks-not-run",
      message: "its command hooks are not registered on this server (it runs no code: serve --sandbox none)",
      file: "SKILL.md",
    });
  }
  const scripts = files.filter(isScript).map((f) => f.path);
  if (scripts.length > 0) {
    const named = scripts.slice(0, MAX_NAMED_SCRIPTS).join(", ");
    const more = scripts.length > MAX_NAMED_SCRIPTS ? ` and ${scripts.length - MAX_NAMED_SCRIPTS} more` : "";
    warnings.push({
      code: "scripts-not-run",
      message: `its scripts (${named}${more}) cannot be run on this server: this server runs no code (serve --sandbox none)`,
      file: scripts[0] ?? "",
    });
  }
  return warnings;
}
