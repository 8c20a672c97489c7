import type { BetaManagedAgentsSessionThreadStatus } from "@anthropic-ai/sdk/resources/beta/sessions/threads/threads";

/** Token counts of model requests, as `span.model_request_end`'s `model_usage` gives them. */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** What one child thread's events in a batch change on its row. */
export interface ThreadEffect {
  usage: TokenCounts;
  /** Its last status event's status in the batch, if any. */
  status?: BetaManagedAgentsSessionThreadStatus;
}

/** What a batch of appended events changes besides the event log: the session's usage and its threads' rows. */
export interface BatchEffects {
  /** Summed over every model request the batch ends, whichever thread made it. */
  usage: TokenCounts;
  /** By child thread id. */
  threads: Map<string, ThreadEffect>;
}

type AnyEvent = { type: string } & Record<string, unknown>;

const THREAD_STATUS_PREFIX = "session.thread_status_";

/** Zero of every count. */
export function noTokens(): TokenCounts {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/** The child thread an event belongs to (its `session_thread_id`), or null for the primary thread. Pure. */
export function threadOf(event: AnyEvent): string | null {
  const thread = event.session_thread_id;
  return typeof thread === "string" && thread !== "" ? thread : null;
}

/**
 * True when `event` is on the stream of thread `threadId` (null: the primary thread): a child's stream holds
 * its own events, the primary's its own and every child's `session.thread_*` events (cross-posted). Pure.
 */
export function onThreadStream(event: AnyEvent, threadId: string | null): boolean {
  const own = threadOf(event);
  return threadId === null ? own === null || event.type.startsWith("session.thread_") : own === threadId;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function addCounts(into: TokenCounts, usage: unknown): void {
  if (typeof usage !== "object" || usage === null) return;
  const u = usage as Record<string, unknown>;
  into.input_tokens += count(u.input_tokens);
  into.output_tokens += count(u.output_tokens);
  into.cache_read_input_tokens += count(u.cache_read_input_tokens);
  into.cache_creation_input_tokens += count(u.cache_creation_input_tokens);
}

/** The thread status a `session.thread_status_*` event sets (`rescheduled` → `rescheduling`). Pure. */
export function threadStatusOf(type: string): BetaManagedAgentsSessionThreadStatus | undefined {
  if (!type.startsWith(THREAD_STATUS_PREFIX)) return undefined;
  const status = type.slice(THREAD_STATUS_PREFIX.length);
  if (status === "running" || status === "idle" || status === "terminated") return status;
  return status === "rescheduled" ? "rescheduling" : undefined;
}

/**
 * What `events` change when appended: each `span.model_request_end`'s `model_usage` adds to the session's usage
 * and to its thread's; each `session.thread_status_*` sets its thread's status. Pure.
 */
export function batchEffects(events: readonly AnyEvent[]): BatchEffects {
  const usage = noTokens();
  const threads = new Map<string, ThreadEffect>();
  const effectOf = (thread: string): ThreadEffect => {
    let effect = threads.get(thread);
    if (effect === undefined) {
      effect = { usage: noTokens() };
      threads.set(thread, effect);
    }
    return effect;
  };
  for (const event of events) {
    const thread = threadOf(event);
    if (event.type === "span.model_request_end") {
      addCounts(usage, event.model_usage);
      if (thread !== null) addCounts(effectOf(thread).usage, event.model_usage);
    }
    const status = threadStatusOf(event.type);
    if (status !== undefined && thread !== null) effectOf(thread).status = status;
  }
  return { usage, threads };
}
