import type { Skill } from "../skill/skill.js";
import { listingDescription } from "./description.js";

/** One `<skill>` of the `<available_skills>` block. */
export interface PromptSkill {
  name: string;
  description: string;
  /** The SKILL.md path; left out (no `<location>` tag) for skills the model calls by name, not by reading. */
  location?: string;
}

/** Escapes `&`, `<`, `>`, `"` and `'` for XML text (as Python's `html.escape`, which skills-ref uses). Pure. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/**
 * The `<available_skills>` block the Agent Skills reference tool (`skills-ref to-prompt`) prints: each tag on its
 * own line, each value escaped on its own line, skills in the order given. Without a location, a skill has
 * only `<name>` and `<description>` (the listing in the system prompt, SPEC §16). Pure.
 */
export function availableSkillsXml(skills: readonly PromptSkill[]): string {
  const lines = ["<available_skills>"];
  for (const s of skills) {
    lines.push("<skill>");
    const tags: [string, string][] = [
      ["name", s.name],
      ["description", s.description],
    ];
    if (s.location !== undefined) tags.push(["location", s.location]);
    for (const [tag, value] of tags) {
      lines.push(`<${tag}>`, escapeXml(value), `</${tag}>`);
    }
    lines.push("</skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

/**
 * The skills of a listing in the system prompt (`skillListing: "system"`): those the model may call, with their
 * listing description. Pure.
 */
export function availableSkillEntries(skills: readonly Skill[]): { name: string; description: string }[] {
  return skills
    .filter((s) => !s.disableModelInvocation)
    .map((s) => ({ name: s.name, description: listingDescription(s) }));
}
