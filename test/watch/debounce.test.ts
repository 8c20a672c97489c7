import { describe, expect, it } from "vitest";
import { createDebouncer } from "../../src/watch/debounce.js";
import { createManualTimers } from "../support/manual-timers.js";

describe("createDebouncer", () => {
  it("turns a burst of triggers into one run, after the last one", () => {
    const timers = createManualTimers();
    let runs = 0;
    const debouncer = createDebouncer({ delayMs: 50, timers, run: () => runs++ });
    for (let i = 0; i < 20; i++) debouncer.trigger();
    expect(timers.pending()).toBe(1);
    timers.fireAll();
    expect(runs).toBe(1);
    debouncer.trigger();
    debouncer.cancel();
    timers.fireAll();
    expect(runs).toBe(1);
  });
});
