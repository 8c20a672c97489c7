import { describe, expect, it } from "vitest";
import {
  PROGRESS_DELAY_MS,
  type ProgressOutput,
  SPINNER_FRAME_MS,
  startProgress,
} from "../../src/cli/progress.js";

/** A schedule whose time moves only when the test says, and what was written to stderr. */
function scripted(options: Partial<ProgressOutput> = {}) {
  let now = 0;
  const timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  let written = "";
  const out: ProgressOutput = {
    stderr: (text) => {
      written += text;
    },
    isTTY: false,
    noColor: false,
    quiet: false,
    schedule: (fn, ms) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    ...options,
  };
  const advance = (ms: number) => {
    now += ms;
    for (;;) {
      const due = timers.find((t) => !t.cancelled && t.at <= now);
      if (due === undefined) return;
      due.cancelled = true;
      due.fn();
    }
  };
  return { out, advance, written: () => written };
}

describe("startProgress", () => {
  it("work shorter than the delay shows nothing", () => {
    const { out, advance, written } = scripted({ isTTY: true });
    const done = startProgress(out, "fetching x");
    advance(PROGRESS_DELAY_MS - 1);
    done();
    advance(PROGRESS_DELAY_MS * 5);
    expect(written()).toBe("");
  });

  it("off a terminal: one plain line once the delay passes, nothing more", () => {
    const { out, advance, written } = scripted();
    const done = startProgress(out, "fetching x");
    advance(PROGRESS_DELAY_MS * 3);
    done();
    expect(written()).toBe("fetching x…\n");
  });

  it("on a terminal: a spinner redrawn in place, dimmed, erased when done", () => {
    const { out, advance, written } = scripted({ isTTY: true });
    const done = startProgress(out, "fetching x");
    advance(PROGRESS_DELAY_MS);
    advance(SPINNER_FRAME_MS);
    done();
    advance(SPINNER_FRAME_MS * 3);
    const frames = written()
      .split("\r")
      .filter((f) => f !== "");
    expect(frames).toHaveLength(3);
    expect(frames[0]).toBe("⠋ \u001b[2mfetching x\u001b[22m…");
    expect(frames[1]).toBe("⠙ \u001b[2mfetching x\u001b[22m…");
    expect(frames[2]).toBe("\u001b[K");
  });

  it("NO_COLOR: the same spinner without colour codes", () => {
    const { out, advance, written } = scripted({ isTTY: true, noColor: true });
    const done = startProgress(out, "fetching x");
    advance(PROGRESS_DELAY_MS);
    done();
    expect(written()).toBe("\r⠋ fetching x…\r\u001b[K");
  });

  it("quiet (--json): nothing at all", () => {
    const { out, advance, written } = scripted({ isTTY: true, quiet: true });
    const done = startProgress(out, "fetching x");
    advance(PROGRESS_DELAY_MS * 3);
    done();
    expect(written()).toBe("");
  });
});
