import type { ModelMessage } from "../agent/model-types.js";
import type { InvokedSkill } from "../skill-tool/invoked-skill.js";
import { invocationsFromTranscript } from "./compaction/reattach.js";
import { replayMessages, type TranscriptStore } from "./transcript-store.js";

/** What a resumed session starts from, read from its stored transcript. */
export interface ResumedConversation {
  /** The conversation to continue. */
  history: ModelMessage[];
  /** The invoked-skill log (for compaction's re-attachment). */
  invocations: InvokedSkill[];
  /** The main agent's inline invocations the conversation still holds (those since its last compaction). */
  loaded: InvokedSkill[];
  /** The `once` hooks that had fired (transcript `hook_fired` keys). */
  firedOnce: string[];
}

/** Reads session `id`'s transcript from `store`. Rejects when the store has no such session. */
export async function readResumed(store: TranscriptStore, id: string): Promise<ResumedConversation> {
  const entries = await store.read(id);
  const sinceCompaction = entries.slice(entries.findLastIndex((e) => e.type === "compaction") + 1);
  return {
    history: replayMessages(entries),
    invocations: invocationsFromTranscript(entries),
    loaded: invocationsFromTranscript(sinceCompaction).filter(
      (i) => i.agentId === undefined && i.fork !== true,
    ),
    firedOnce: entries.flatMap((e) => (e.type === "hook_fired" ? [e.key] : [])),
  };
}
