/** Where a skill is installed: the project's `.claude/skills`, or the user's `~/.claude/skills`. */
export const INSTALL_SCOPES = ["project", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];
