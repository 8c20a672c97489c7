/** One invocation of a skill, as recorded for usage scores and compaction (SPEC §5). */
export interface InvokedSkill {
  name: string;
  /** The raw args string, as given. */
  args: string;
  /** The expansion as it was sent to the model. */
  text: string;
  /** Set for invocations made inside a sub-agent; only the main agent's (undefined) are re-attached. */
  agentId?: string;
  /**
   * Set when the skill ran as a fork: `text` was its sub-agent's task, never in the caller's conversation, so it
   * is not re-attached after compaction nor counted as loaded there.
   */
  fork?: true;
  /** When it happened, in ms since the epoch. */
  at: number;
}
