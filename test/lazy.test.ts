import { describe, expect, it } from "vitest";
import { lazy } from "../src/lazy.js";

describe("lazy", () => {
  it("builds nothing until the first call", () => {
    let builds = 0;
    lazy(() => {
      builds += 1;
      return 1;
    });
    expect(builds).toBe(0);
  });

  it("builds once and returns the same value on every call", () => {
    let builds = 0;
    const get = lazy(() => {
      builds += 1;
      return { n: builds };
    });
    const first = get();
    expect(get()).toBe(first);
    expect(get()).toBe(first);
    expect(first).toEqual({ n: 1 });
    expect(builds).toBe(1);
  });

  it("keeps an undefined value as built (no rebuild)", () => {
    let builds = 0;
    const get = lazy(() => {
      builds += 1;
      return undefined;
    });
    expect(get()).toBeUndefined();
    expect(get()).toBeUndefined();
    expect(builds).toBe(1);
  });

  it("keeps nothing after a throw and builds again on the next call", () => {
    let builds = 0;
    const get = lazy(() => {
      builds += 1;
      if (builds === 1) throw new Error("first build fails");
      return `built ${builds}`;
    });
    expect(get).toThrow("first build fails");
    expect(get()).toBe("built 2");
    expect(get()).toBe("built 2");
    expect(builds).toBe(2);
  });

  it("gives each lazy its own value", () => {
    const a = lazy(() => ({ name: "a" }));
    const b = lazy(() => ({ name: "a" }));
    expect(a()).not.toBe(b());
  });
});
