/** One invocation of a skill, as recorded for usage scores and compaction (SPEC §5). */
export interface InvokedSkill {
  name: string;
  /** The raw args string, as given. */
  args: string;
  /** The expansion as it was sent to the model. */
  text: string;
  /** Set for invocations made inside a sub-agent; only the main agent's (undefined) are re-attached. */
  agentId?: string;
  /** When it happened, in ms since the epoch. */
  at: number;
}
