import type { ModelContentBlock } from "../agent/model-types.js";
import { applyPatch, type TurnState } from "../agent/turn-patch.js";
import {
  commandMetadataText,
  parseSlashCommand,
  renderUnknownCommand,
  userInvocableRefusal,
} from "../inline/render.js";
import type { Skill } from "../skill/skill.js";
import { type DisabledSkill, disabledSkillText } from "../skill-filter.js";
import type { InvocationOutcome, InvocationRequest } from "../skill-tool/invoke.js";
import { findSkill } from "../skill-tool/validate.js";

/** What a typed line becomes (SPEC §6). */
export type SlashOutcome =
  /** Send these blocks to the model (plain text, an expanded command, or an unknown `/x` with its reminder). */
  | { kind: "send"; userBlocks: ModelContentBlock[] }
  /** An inline skill: send the blocks with the skill's turn overrides applied. */
  | { kind: "expand"; userBlocks: ModelContentBlock[]; turn: TurnState }
  /** Answer without a model request; `record` says whether the exchange joins the transcript. */
  | { kind: "reply"; text: string; ok: boolean; userBlocks: ModelContentBlock[]; record: boolean };

export interface SlashDeps {
  skills: readonly Skill[];
  turn: TurnState;
  signal: AbortSignal;
  invoke: (request: InvocationRequest) => Promise<InvocationOutcome>;
  /** The disabled skill called `name`, if any (settings `skills.disabled`, `--skills`, `--no-skills`). */
  disabled?: (name: string) => DisabledSkill | undefined;
}

/**
 * The user's side of the one invocation pipeline: a typed `/name args` (or `/skill:name args`) naming a
 * user-invocable skill goes through `invoke` exactly like a Skill tool call; `user-invocable: false` is answered
 * without a model request (SPEC §14.14); an unknown `/x` is sent as typed after a reminder naming the available
 * commands in listing order.
 */
export async function handleSlash(prompt: string, deps: SlashDeps): Promise<SlashOutcome> {
  const text: ModelContentBlock = { type: "text", text: prompt };
  const command = parseSlashCommand(prompt.trim());
  if (command === undefined) return { kind: "send", userBlocks: [text] };
  const byTypedName = findSkill(deps.skills, command.typedName);
  const skill = byTypedName ?? findSkill(deps.skills, command.name);
  if (skill === undefined) {
    const off = deps.disabled?.(command.typedName) ?? deps.disabled?.(command.name);
    if (off !== undefined) {
      const reply = disabledSkillText(off.skill.name, off.by);
      return { kind: "reply", text: reply, ok: false, userBlocks: [text], record: false };
    }
    const available = deps.skills.filter((s) => s.userInvocable).map((s) => s.name);
    return { kind: "send", userBlocks: renderUnknownCommand(prompt, command.name, available) };
  }
  const name = byTypedName === undefined ? command.name : command.typedName;
  if (!skill.userInvocable) {
    return { kind: "reply", text: userInvocableRefusal(name), ok: true, userBlocks: [text], record: false };
  }
  const meta: ModelContentBlock = { type: "text", text: commandMetadataText(skill.name, command.args) };
  const outcome = await deps.invoke({
    skill,
    name,
    args: command.args,
    origin: "user",
    turn: deps.turn,
    signal: deps.signal,
    depth: 0,
  });
  switch (outcome.kind) {
    case "refused":
      return { kind: "reply", text: outcome.message, ok: false, userBlocks: [meta], record: false };
    case "fork":
      return outcome.outcome.ok
        ? { kind: "reply", text: outcome.outcome.answer, ok: true, userBlocks: [meta], record: true }
        : { kind: "reply", text: outcome.outcome.text, ok: false, userBlocks: [meta], record: true };
    case "inline":
      return {
        kind: "expand",
        userBlocks: [
          meta,
          ...(outcome.note === undefined ? [] : [{ type: "text" as const, text: outcome.note }]),
          { type: "text", text: outcome.text },
        ],
        turn: applyPatch(deps.turn, outcome.patch),
      };
  }
}
