/**
 * How long a skill's inline expansion stays in what the model is sent (issue 31 item 1). A host's defaults; a
 * skill's own `ttl-turns` wins over `expireAfterUserTurns`.
 */
export interface SkillContextOptions {
  /**
   * After this many further user turns an inline expansion is replaced by a one-line stub in the requests (the
   * transcript keeps it). 0: only the turn it was invoked in. Absent: expansions stay (unless the skill has
   * `ttl-turns`).
   */
  expireAfterUserTurns?: number;
  /**
   * The estimated tokens the live expansions may hold together: at the start of a user turn, while they hold
   * more, the least recently invoked expire first. Absent: no cap.
   */
  maxTokens?: number;
}

/** An inline expansion still in what the model is sent. */
export interface LiveExpansion {
  /** Unique within the session; higher is newer. */
  id: number;
  name: string;
  /** The user turn (1-based) of the skill's last invocation that this expansion stands for. */
  lastTurn: number;
  /** Its `ttl-turns` (or the session's default); undefined: it expires only to fit `maxTokens`. */
  ttl: number | undefined;
  /** `estimateTokens` of the text it puts in the conversation. */
  tokens: number;
}

/** The line that replaces an expired expansion in what the model is sent. */
export function expiredSkillStub(name: string): string {
  return `Skill ${name} was used earlier; call it again if you need its instructions.`;
}

/**
 * The ids of the expansions that expire at the start of user turn `turn` (1-based): every one whose TTL ran out
 * (`turn - lastTurn > ttl`: `ttl-turns: 1` invoked in turn 1 is sent in turns 1 and 2, stubbed from turn 3),
 * then, while the rest hold more than `maxTokens`, the least recently invoked (ties: the oldest id). Called once
 * per user turn, so all that is due leaves in one batch: one change to the request prefix per turn at most.
 * In the order they expire. Pure.
 */
export function dueExpansions(
  live: readonly LiveExpansion[],
  turn: number,
  maxTokens: number | undefined,
): number[] {
  const due: number[] = [];
  const kept: LiveExpansion[] = [];
  for (const expansion of live) {
    if (expansion.ttl !== undefined && turn - expansion.lastTurn > expansion.ttl) due.push(expansion.id);
    else kept.push(expansion);
  }
  if (maxTokens === undefined) return due;
  let total = kept.reduce((sum, e) => sum + e.tokens, 0);
  const oldestFirst = [...kept].sort((a, b) => a.lastTurn - b.lastTurn || a.id - b.id);
  for (const expansion of oldestFirst) {
    if (total <= maxTokens) break;
    due.push(expansion.id);
    total -= expansion.tokens;
  }
  return due;
}
