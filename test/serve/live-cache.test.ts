import { afterEach, describe, expect, it, vi } from "vitest";
import { createLiveCache } from "../../src/serve/sessions/live-cache.js";

// Served sessions kept open between turns: bounded (least recently put closed first), closed when unused for
// the idle time, never closed while taken out for a turn, and all closed on shutdown.

afterEach(() => {
  vi.useRealTimers();
});

function cache(max: number, idleMs = 60_000) {
  const closed: string[] = [];
  const live = createLiveCache<string>({ max, idleMs }, async (value) => {
    closed.push(value);
  });
  return { live, closed };
}

describe("the live session cache", () => {
  it("closes the least recently put value beyond max, and not one taken out", async () => {
    const { live, closed } = cache(2);
    live.put("a", "A");
    live.put("b", "B");
    expect(live.take("a")).toBe("A");
    live.put("c", "C");
    live.put("d", "D");
    expect(closed).toEqual(["B"]);
    live.put("a", "A");
    expect(closed).toEqual(["B", "C"]);
    expect(live.size()).toBe(2);
  });

  it("closes a value unused for idleMs, but not one put back since", async () => {
    vi.useFakeTimers();
    const { live, closed } = cache(10, 1000);
    live.put("a", "A");
    live.put("b", "B");
    vi.advanceTimersByTime(600);
    live.put("b", live.take("b") ?? "");
    vi.advanceTimersByTime(600);
    expect(closed).toEqual(["A"]);
    expect(live.take("b")).toBe("B");
  });

  it("drops one, closes all on close, and closes what is put after", async () => {
    const { live, closed } = cache(10);
    live.put("a", "A");
    live.put("b", "B");
    await live.drop("a");
    expect(closed).toEqual(["A"]);
    await live.close();
    live.put("c", "C");
    expect(closed).toEqual(["A", "B", "C"]);
    expect(live.size()).toBe(0);
  });
});
