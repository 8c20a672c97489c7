import { describe, expect, it } from "vitest";
import {
  CLAUDE_MANAGED_DIR,
  DEFAULT_MANAGED_DIR,
  kindOf,
  skillRoots,
} from "../../src/discovery/skill-roots.js";

describe("skillRoots", () => {
  it("is the one ordered list: managed, user, project (nearest first), --add-dir, bundled", () => {
    const roots = skillRoots({
      home: "/h",
      managedDir: "/m",
      projectDirs: ["/h/r/a", "/h/r"],
      addDirs: ["/x"],
      bundledDir: "/pkg/bundled-skills",
    });
    expect(roots.map((r) => `${r.source} ${r.layout} ${r.dir}`)).toEqual([
      "managed skills /m/skills",
      "managed commands /m/commands",
      `managed skills ${CLAUDE_MANAGED_DIR}/skills`,
      `managed commands ${CLAUDE_MANAGED_DIR}/commands`,
      "user skills /h/.claude/skills",
      "user skills /h/.agents/skills",
      "user commands /h/.claude/commands",
      "project skills /h/r/a/.claude/skills",
      "project skills /h/r/a/.agents/skills",
      "project commands /h/r/a/.claude/commands",
      "project skills /h/r/.claude/skills",
      "project skills /h/r/.agents/skills",
      "project commands /h/r/.claude/commands",
      "project skills /x/.claude/skills",
      "project skills /x/.agents/skills",
      "project commands /x/.claude/commands",
      "bundled skills /pkg/bundled-skills",
    ]);
    expect(new Set(roots.map((r) => r.label)).size).toBeGreaterThan(5);
  });

  it("defaults the managed dir to /etc/skillwright and ships no bundled root when not given", () => {
    const roots = skillRoots({ home: "/h", projectDirs: [], addDirs: [] });
    expect(DEFAULT_MANAGED_DIR).toBe("/etc/skillwright");
    expect(CLAUDE_MANAGED_DIR).toBe("/etc/claude-code/.claude");
    expect(roots[0]?.dir).toBe("/etc/skillwright/skills");
    expect(roots.some((r) => r.source === "bundled")).toBe(false);
  });

  it("kindOf maps layouts to skill kinds", () => {
    const [skills, commands] = skillRoots({ home: "/h", projectDirs: [], addDirs: [] });
    expect(skills && kindOf(skills)).toBe("skill");
    expect(commands && kindOf(commands)).toBe("command");
  });
});
