import { describe, expect, it } from "vitest";
import { createProgress, elapsedText, progressBar } from "../../src/skill-test/progress.js";

/** A clock the test moves by hand. */
function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("model-run progress", () => {
  it("on a terminal redraws one bar in place with count/total and elapsed, and ends its line", () => {
    const out: string[] = [];
    const c = clock();
    const progress = createProgress({ write: (s) => out.push(s), tty: true, now: c.now });
    progress.start(4);
    c.advance(1_500);
    progress.tick("greet › greetings");
    c.advance(1_000);
    progress.tick("greet › greetings");
    progress.finish();
    progress.finish();
    expect(out).toEqual([
      `\r[${"░".repeat(24)}] 0/4 model runs · 0.0s\x1b[K`,
      `\r[${"█".repeat(6)}${"░".repeat(18)}] 1/4 model runs · 1.5s · greet › greetings\x1b[K`,
      `\r[${"█".repeat(12)}${"░".repeat(12)}] 2/4 model runs · 2.5s · greet › greetings\x1b[K`,
      "\n",
    ]);
  });

  it("elsewhere writes one plain line per run and no control characters", () => {
    const out: string[] = [];
    const c = clock();
    const progress = createProgress({ write: (s) => out.push(s), tty: false, now: c.now });
    progress.start(2);
    c.advance(250);
    progress.tick("a › b");
    c.advance(65_000);
    progress.tick("a › b");
    progress.finish();
    expect(out).toEqual(["model run 1/2 (0.3s): a › b\n", "model run 2/2 (1m05s): a › b\n"]);
  });

  it("draws nothing when there are no model runs", () => {
    const out: string[] = [];
    const progress = createProgress({ write: (s) => out.push(s), tty: true, now: () => 0 });
    progress.start(0);
    progress.finish();
    expect(out).toEqual([]);
  });

  it("formats the bar and elapsed time", () => {
    expect(progressBar(3, 3, 59_949, "")).toBe(`[${"█".repeat(24)}] 3/3 model runs · 59.9s`);
    expect(elapsedText(125_000)).toBe("2m05s");
  });
});
