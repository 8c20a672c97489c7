import type { AgentTool } from "../agent/loop.js";
import { ruleToolName } from "../agent/turn-patch.js";

/**
 * Tools that answer some calls without a question even when no rule names them: Bash runs read-only commands,
 * the Skill tool runs skills with only safe properties. A background fork keeps them; their calls that would
 * need a question are denied.
 */
const PARTLY_UNASKED: ReadonlySet<string> = new Set(["Bash", "Skill"]);

/** A background fork's tools: those it keeps, and those left out because every call would need a question. */
export interface BackgroundTools {
  kept: AgentTool[];
  /** Tool names left out, in the order the agent type had them. */
  withheld: string[];
}

/**
 * The tools a background fork can have (nobody is there to answer a permission question): read-only tools,
 * Bash and Skill, and any tool an allow rule, a grant (`allowed-tools`) or the agent's `permissionMode` names
 * (bare or scoped). Every other tool (Write and Edit with no rule, MCP tools nobody allowed) would ask on
 * every call, so it is withheld, and named. Pure.
 */
export function backgroundTools(tools: readonly AgentTool[], allowing: readonly string[]): BackgroundTools {
  const named = new Set(allowing.map(ruleToolName));
  const kept: AgentTool[] = [];
  const withheld: string[] = [];
  for (const tool of tools) {
    if (tool.readOnly || PARTLY_UNASKED.has(tool.name) || named.has(tool.name) || named.has("*"))
      kept.push(tool);
    else withheld.push(tool.name);
  }
  return { kept, withheld };
}

/** The sentence naming the tools a background fork was not given, or "" when none. Pure. */
function withheldSentence(withheld: readonly string[]): string {
  return withheld.length === 0
    ? ""
    : ` It runs without ${withheld.join(", ")}: in the background nobody can answer the permission question each call of ${withheld.length === 1 ? "it" : "them"} would need.`;
}

/**
 * The tool result a background fork's caller gets at once: the handle and what to expect (SPEC deviation in
 * docs/behaviour.md). `name` is the name as called. Pure.
 */
export function backgroundStartedText(name: string, handle: string, withheld: readonly string[]): string {
  return (
    `Skill "${name}" started in the background (forked execution, handle ${handle}).` +
    withheldSentence(withheld) +
    ` Its answer will arrive later in a <system-reminder> naming ${handle}; go on without waiting for it.`
  );
}

/**
 * The block that opens a background fork's first message: that it runs in the background, the tools it has,
 * those withheld and why, and that a call needing a question is denied. Pure.
 */
export function backgroundToolsNote(tools: readonly string[], withheld: readonly string[]): string {
  const has = tools.length === 0 ? "no tools" : `these tools: ${tools.join(", ")}`;
  const without =
    withheld.length === 0
      ? ""
      : ` You do not have ${withheld.join(", ")}: each call would need a permission question.`;
  return (
    `<system-reminder>You run in the background: nobody can answer a permission question, so a tool call ` +
    `that would need one is denied. You have ${has}.${without}</system-reminder>`
  );
}

/** The reminder that brings a background fork's answer (its result text) into its caller's next request. Pure. */
export function backgroundAnswerReminder(handle: string, result: string): string {
  return `<system-reminder>The background fork ${handle} finished.\n\n${result}</system-reminder>`;
}
