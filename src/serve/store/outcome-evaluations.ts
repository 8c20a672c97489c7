import type { BetaManagedAgentsOutcomeEvaluationResource } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";

/**
 * The event types a session's `outcome_evaluations` are folded from (see {@link outcomeEvaluations}); migration
 * 9's partial index holds exactly these, so the fold reads only them (and only once the session has an outcome).
 */
export const OUTCOME_EVENT_TYPES = [
  "user.define_outcome",
  "span.outcome_evaluation_start",
  "span.outcome_evaluation_end",
  "user.interrupt",
  "session.status_running",
  "session.status_idle",
] as const;

/** The results after which an outcome changes no more. */
const TERMINAL = new Set(["satisfied", "max_iterations_reached", "failed", "interrupted"]);

/** One event the fold reads: its type, its stored body and when it was stored (ISO 8601). */
export interface OutcomeEventRow {
  type: string;
  body: Record<string, unknown>;
  at: string;
}

/**
 * The SQL column (on `sessions`) that reads a session's outcome events from its first `user.define_outcome` on,
 * oldest first, as a JSON array of {@link OutcomeEventRow}s, over migration 9's partial indexes: a session that
 * never defined an outcome costs one index probe, whatever its length.
 */
export const OUTCOME_EVENTS_COLUMN = `(SELECT coalesce(jsonb_agg(jsonb_build_object('type', e.type, 'body', e.body,
     'at', e.created_at) ORDER BY e.seq), '[]'::jsonb)
   FROM session_events e WHERE e.session_id = sessions.id
     AND e.type IN (${OUTCOME_EVENT_TYPES.map((t) => `'${t}'`).join(", ")})
     AND e.seq >= (SELECT min(d.seq) FROM session_events d
       WHERE d.session_id = sessions.id AND d.type = 'user.define_outcome')) AS outcome_events`;

const str = (value: unknown): string => (typeof value === "string" ? value : "");

/**
 * A session's `outcome_evaluations` from its outcome events (oldest first), one per `user.define_outcome`:
 * `pending` until a turn starts after it, `running` while the agent works, `evaluating` between an evaluation's
 * start and end, `running` again (next iteration) after `needs_revision`, and the end's result when terminal.
 * A `user.interrupt` makes an unfinished outcome `interrupted`; a turn that ends (idle, not waiting on the user)
 * with its outcome still unfinished (the turn failed) makes it `failed`. Pure.
 */
export function outcomeEvaluations(
  rows: readonly OutcomeEventRow[],
): BetaManagedAgentsOutcomeEvaluationResource[] {
  const outcomes: BetaManagedAgentsOutcomeEvaluationResource[] = [];
  const open = () => outcomes.filter((o) => !TERMINAL.has(o.result));
  for (const { type, body, at } of rows) {
    const at8601 = new Date(at).toISOString();
    const byId = outcomes.find((o) => o.outcome_id === str(body.outcome_id));
    if (type === "user.define_outcome") {
      outcomes.push({
        type: "outcome_evaluation",
        outcome_id: str(body.outcome_id),
        description: str(body.description),
        explanation: null,
        iteration: 0,
        result: "pending",
        completed_at: null,
      });
    } else if (type === "session.status_running") {
      for (const o of open()) if (o.result === "pending") o.result = "running";
    } else if (type === "span.outcome_evaluation_start" && byId !== undefined) {
      byId.result = "evaluating";
      byId.iteration = typeof body.iteration === "number" ? body.iteration : byId.iteration;
    } else if (type === "span.outcome_evaluation_end" && byId !== undefined) {
      const result = str(body.result);
      byId.explanation = str(body.explanation);
      if (result === "needs_revision") {
        byId.result = "running";
        byId.iteration = (typeof body.iteration === "number" ? body.iteration : byId.iteration) + 1;
      } else {
        byId.result = result;
        byId.completed_at = at8601;
      }
    } else if (type === "user.interrupt") {
      for (const o of open()) {
        o.result = "interrupted";
        o.completed_at = at8601;
      }
    } else if (type === "session.status_idle") {
      const reason = body.stop_reason;
      const waiting =
        typeof reason === "object" &&
        reason !== null &&
        "type" in reason &&
        reason.type === "requires_action";
      if (waiting) continue;
      for (const o of open()) {
        if (o.result === "pending") continue;
        o.result = "failed";
        o.completed_at = at8601;
      }
    }
  }
  return outcomes;
}

/** The fold over a session row's `outcome_events` column (absent or not an array: none). Pure. */
export function outcomeEvaluationsOf(column: unknown): BetaManagedAgentsOutcomeEvaluationResource[] {
  const parsed = typeof column === "string" ? (JSON.parse(column) as unknown) : column;
  if (!Array.isArray(parsed)) return [];
  return outcomeEvaluations(
    parsed.flatMap((raw: unknown) => {
      if (typeof raw !== "object" || raw === null) return [];
      const row: Record<string, unknown> = { ...raw };
      const body = typeof row.body === "object" && row.body !== null ? { ...row.body } : {};
      return [{ type: str(row.type), body, at: str(row.at) }];
    }),
  );
}
