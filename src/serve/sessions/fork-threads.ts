import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { AgentEvent } from "../../agent/events.js";
import type { NewThread } from "../store/sessions.js";
import type { ForkThread, OutEvent } from "./agent-event-map.js";

type ForkStart = Extract<AgentEvent, { type: "fork_start" }>;
type ForkEnd = Extract<AgentEvent, { type: "fork_end" }>;

/**
 * A fork's start as a child thread: the thread to create (its `agent` an inline agent: the skill's name, the
 * model it runs on, the session agent's execution identity) and its `session.thread_created` and
 * `session.thread_status_running` events. `parent` is the thread of the agent that called the skill. Pure.
 */
export function threadStarted(
  event: ForkStart,
  thread: ForkThread,
  parent: string,
  identity: BetaManagedAgentsSession["agent"]["execution_identity"],
): { thread: NewThread; events: OutEvent[] } {
  return {
    thread: {
      id: thread.id,
      parentThreadId: parent,
      agentName: thread.name,
      agent: {
        type: "inline",
        name: thread.name,
        description: `Forked skill ${event.skill}, run as agent type ${event.agentType}`,
        model: { id: event.model },
        system: null,
        tools: [],
        skills: [],
        mcp_servers: [],
        execution_identity: identity,
      },
    },
    events: [
      {
        type: "session.thread_created",
        session_thread_id: thread.id,
        agent_name: thread.name,
        workflow_run_id: null,
      },
      { type: "session.thread_status_running", session_thread_id: thread.id, agent_name: thread.name },
    ],
  };
}

/**
 * A fork's end as its thread's status events: an answer goes idle (`end_turn`); a failure (an error, the turn
 * limit, a block, no answer) goes idle with `retries_exhausted` and then terminates, as a failed child thread
 * does; an abort terminates. Pure.
 */
export function threadEnded(event: ForkEnd, thread: ForkThread): OutEvent[] {
  const base = { session_thread_id: thread.id, agent_name: thread.name };
  const terminated = threadTerminated(thread);
  const idle = (reason: "end_turn" | "retries_exhausted"): OutEvent => ({
    type: "session.thread_status_idle",
    ...base,
    stop_reason: { type: reason },
    stop_details: null,
  });
  const { cause, text } = event.result;
  if (cause === "aborted") return [terminated];
  if (cause === "end_turn" && text.trim() !== "") return [idle("end_turn")];
  return [idle("retries_exhausted"), terminated];
}

/** A `session.thread_status_terminated` for a fork's thread: its turn ended without it telling how it ended. Pure. */
export function threadTerminated(thread: ForkThread): OutEvent {
  return { type: "session.thread_status_terminated", session_thread_id: thread.id, agent_name: thread.name };
}
