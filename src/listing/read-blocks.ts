import type { ModelMessage } from "../agent/model-types.js";
import { displayName, type Skill } from "../skill/skill.js";
import { LISTING_HEADER } from "./block.js";

// Reading listing blocks back out of a conversation: which names it listed, and what its blocks spent of the
// budget (a resumed session goes on from there).

/** How the second line of a listing block or a nested-skills announcement ends (SPEC §3, §9). */
const LISTING_HEADER_END = "the Skill tool:";
const REMINDER_OPENING = "<system-reminder>\n";

/** The user-role text blocks of `messages` that are `<system-reminder>` blocks, in order. Pure. */
export function reminderTexts(messages: readonly ModelMessage[]): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "text" && block.text.startsWith(REMINDER_OPENING)) texts.push(block.text);
    }
  }
  return texts;
}

/**
 * The chars one listing block counts against the budget (SPEC §3): the entry lines after its listing header
 * joined with `⏎`, plus the omitted-skills line and the blank line before it when there is one (as
 * `Listing.chars`; the name-only note is not counted). A nested-discovery announcement counts its entries
 * (after its listing header), not its list of names. 0 for any other text. Pure.
 */
export function listingBlockChars(text: string): number {
  if (!text.startsWith(REMINDER_OPENING)) return 0;
  const lines = text.split("\n");
  const header = lines.indexOf(LISTING_HEADER);
  if (header < 0) return 0;
  const body = lines.slice(header + 1, -1);
  const entries = body.filter((line) => line.startsWith("- "));
  const note = body.find((line) => line.startsWith("(") && line.includes("not listed"));
  const entryChars = entries.join("\n").length;
  return note === undefined ? entryChars : entryChars + note.length + (entries.length > 0 ? 2 : 0);
}

/**
 * The chars a conversation's listing blocks and nested-discovery announcements count against the budget
 * (`listingBlockChars` of each user `<system-reminder>` block): a resumed session goes on from there. Pure.
 */
export function listedChars(messages: readonly ModelMessage[]): number {
  return reminderTexts(messages).reduce((sum, text) => sum + listingBlockChars(text), 0);
}

/**
 * The names among `skills` that a conversation already listed to the model: those with an entry line
 * (`- {display}` or `- {display}: …`) in a listing or an announcement (a user `<system-reminder>` block whose
 * header line ends with "the Skill tool:"). A resumed session marks them sent and keeps them invocable. Pure.
 */
export function namesListedIn(messages: readonly ModelMessage[], skills: readonly Skill[]): string[] {
  const lines = new Set<string>();
  for (const text of reminderTexts(messages)) {
    const [, header, ...rest] = text.split("\n");
    if (header === undefined || !header.endsWith(LISTING_HEADER_END)) continue;
    for (const line of rest) if (line.startsWith("- ")) lines.add(line);
  }
  if (lines.size === 0) return [];
  const listed = [...lines];
  return skills
    .filter((skill) => {
      const entry = `- ${displayName(skill)}`;
      return lines.has(entry) || listed.some((line) => line.startsWith(`${entry}: `));
    })
    .map((skill) => skill.name);
}
