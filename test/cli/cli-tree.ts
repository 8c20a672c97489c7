import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/**
 * The project the CLI tests run in: a user skill with an alias, a fork and tools; project skills (one
 * user-only and conditional, one with bad YAML, one shadowing the user skill); a stray file; a command;
 * a bundled skill.
 */
export function cliTree(): Promise<TmpTree> {
  return tmpTree({
    "home/.claude/skills/helper/SKILL.md":
      "---\nname: help-me\ndescription: Helps with things\ncontext: fork\nagent: Explore\nallowed-tools: Read, Grep\n---\n# Helper\n\nDo the thing with $ARGUMENTS.\n",
    "home/repo/.git": { dir: true },
    "home/repo/.claude/skills/proj/SKILL.md":
      "---\ndescription: Project skill\ndisable-model-invocation: true\npaths: '*.ts'\neffort: high\n---\nProject body\n",
    "home/repo/.claude/skills/broken/SKILL.md": "---\ndescription: Broken: yaml\n---\nBroken body\n",
    "home/repo/.claude/skills/helper/SKILL.md": "---\ndescription: shadowed by the user skill\n---\n",
    "home/repo/.claude/skills/stray.md": "not a skill",
    "home/repo/.claude/commands/deploy.md": "---\nargument-hint: <env>\n---\nDeploy to $1\n",
    "bundled/bund/SKILL.md": "---\ndescription: Bundled skill\nuser-invocable: false\n---\nBundled body\n",
  });
}
