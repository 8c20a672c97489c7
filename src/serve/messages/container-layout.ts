import type { SessionMount } from "../../sandbox/os-session-sandbox.js";
import type { MountLayout } from "../sessions/mount-fs.js";

/** Where a container's skills are: each one's folder, read-only, at `/skills/<name>/` (the Skills API's place). */
export const CONTAINER_SKILLS_ROOT = "/skills";

/** The container's own files (writable, kept between requests) and where its commands start. */
export const CONTAINER_HOME = "/mnt/user-data";

/** Files written under this folder become Files API files the response names (`bash_code_execution_output`). */
export const CONTAINER_OUTPUTS = `${CONTAINER_HOME}/outputs`;

/**
 * A container's file system: its files under {@link CONTAINER_HOME} (whose outputs folder is there from the
 * start), its skills under {@link CONTAINER_SKILLS_ROOT}.
 */
export const CONTAINER_LAYOUT: MountLayout = {
  scratchRoot: CONTAINER_HOME,
  skillsRoot: CONTAINER_SKILLS_ROOT,
  folders: [CONTAINER_OUTPUTS],
};

/** The folders an `os`-tier command of a container sees at the same paths. */
export const CONTAINER_OS_MOUNTS: readonly SessionMount[] = [
  { path: CONTAINER_HOME, writable: true },
  { path: CONTAINER_SKILLS_ROOT, writable: false },
];

/** What the model is told of one skill loaded in the container: its metadata, as the Skills API gives it. */
export interface SkillMetadata {
  name: string;
  description: string;
}

/**
 * The text appended to the request's system prompt when the container holds skills: each skill's name,
 * description and the path of its SKILL.md (the model reads the rest itself, with the code execution tool),
 * and where outputs go. Empty when there are no skills: the system prompt is the client's alone. Pure.
 */
export function skillsSystemSection(skills: readonly SkillMetadata[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map(
    (s) => `- ${s.name}: ${s.description} (instructions: ${CONTAINER_SKILLS_ROOT}/${s.name}/SKILL.md)`,
  );
  return [
    "Skills are loaded in your code execution container, each in its own folder under " +
      `${CONTAINER_SKILLS_ROOT}/. When a task fits a skill, read its SKILL.md with the code execution tools ` +
      "before doing anything else, then follow it; its scripts and files are in the same folder.",
    "",
    ...lines,
    "",
    `Files you write under ${CONTAINER_OUTPUTS}/ are given to the user as downloadable files.`,
  ].join("\n");
}

/** The request's system prompt with {@link skillsSystemSection} after it (a blank line between). Pure. */
export function systemWithSkills(system: string, skills: readonly SkillMetadata[]): string {
  const section = skillsSystemSection(skills);
  if (section === "") return system;
  return system === "" ? section : `${system}\n\n${section}`;
}
