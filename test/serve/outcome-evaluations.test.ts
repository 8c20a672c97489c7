import { describe, expect, it } from "vitest";
import { type OutcomeEventRow, outcomeEvaluations } from "../../src/serve/store/outcome-evaluations.js";

const T = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
const define = (id: string, at: number): OutcomeEventRow => ({
  type: "user.define_outcome",
  body: { outcome_id: id, description: `task ${id}` },
  at: T(at),
});
const row = (type: string, body: Record<string, unknown>, at: number): OutcomeEventRow => ({
  type,
  body,
  at: T(at),
});

describe("outcomeEvaluations", () => {
  it("follows an outcome from pending through a revision to satisfied", () => {
    const rows = [define("outc_a", 0)];
    expect(outcomeEvaluations(rows)[0]).toMatchObject({
      result: "pending",
      iteration: 0,
      completed_at: null,
    });
    rows.push(row("session.status_running", {}, 1));
    expect(outcomeEvaluations(rows)[0]?.result).toBe("running");
    rows.push(row("span.outcome_evaluation_start", { outcome_id: "outc_a", iteration: 0 }, 2));
    expect(outcomeEvaluations(rows)[0]?.result).toBe("evaluating");
    rows.push(
      row(
        "span.outcome_evaluation_end",
        { outcome_id: "outc_a", iteration: 0, result: "needs_revision", explanation: "more" },
        3,
      ),
    );
    expect(outcomeEvaluations(rows)[0]).toMatchObject({
      result: "running",
      iteration: 1,
      explanation: "more",
    });
    rows.push(
      row(
        "span.outcome_evaluation_end",
        { outcome_id: "outc_a", iteration: 1, result: "satisfied", explanation: "ok" },
        4,
      ),
      row("session.status_idle", { stop_reason: { type: "end_turn" } }, 5),
    );
    expect(outcomeEvaluations(rows)).toEqual([
      {
        type: "outcome_evaluation",
        outcome_id: "outc_a",
        description: "task outc_a",
        iteration: 1,
        result: "satisfied",
        explanation: "ok",
        completed_at: T(4),
      },
    ]);
  });

  it("an interrupt ends what is unfinished; a failed turn fails its outcome; a wait on the user does not", () => {
    const interrupted = outcomeEvaluations([
      define("outc_a", 0),
      row("session.status_running", {}, 1),
      row("user.interrupt", {}, 2),
    ]);
    expect(interrupted[0]).toMatchObject({ result: "interrupted", completed_at: T(2) });
    const failed = outcomeEvaluations([
      define("outc_a", 0),
      row("session.status_running", {}, 1),
      row("session.status_idle", { stop_reason: { type: "requires_action" } }, 2),
      row("session.status_idle", { stop_reason: { type: "retries_exhausted" } }, 3),
      define("outc_b", 4),
    ]);
    expect(failed.map((o) => [o.outcome_id, o.result, o.completed_at])).toEqual([
      ["outc_a", "failed", T(3)],
      ["outc_b", "pending", null],
    ]);
  });
});
