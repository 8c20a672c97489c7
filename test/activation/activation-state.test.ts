import { describe, expect, it } from "vitest";
import { createActivationState } from "../../src/activation/activation-state.js";
import type { ConditionalSkill } from "../../src/activation/path-matcher.js";

const skill = (name: string, paths?: string[]): ConditionalSkill =>
  paths === undefined ? { name, filePath: "" } : { name, paths, filePath: "" };

const CWD = "/repo";

describe("createActivationState", () => {
  it("activates a skill once, in skill order, and keeps it active", () => {
    const state = createActivationState([
      skill("always"),
      skill("md", ["*.md"]),
      skill("ts", ["src/**/*.ts"]),
    ]);
    expect(state.isActive("always")).toBe(true);
    expect(state.isActive("ts")).toBe(false);
    expect(state.touch(["/repo/src/a.ts", "/repo/README.md"], CWD)).toEqual(["md", "ts"]);
    expect(state.touch(["/repo/src/b.ts", "/repo/x.md"], CWD)).toEqual([]);
    expect(state.isActive("ts")).toBe(true);
    expect(state.activated()).toEqual(["md", "ts"]);
  });

  it("takes relative paths against the cwd and never matches outside it", () => {
    const state = createActivationState([skill("ts", ["*.ts"])]);
    expect(state.touch(["/elsewhere/a.ts", "/repo/../other/a.ts", "/repo"], CWD)).toEqual([]);
    expect(state.isActive("ts")).toBe(false);
    expect(state.touch(["lib/a.ts"], CWD)).toEqual(["ts"]);
  });

  it("visible() keeps non-conditional and activated skills, in order", () => {
    const skills = [skill("a"), skill("b", ["*.md"]), skill("c", ["*.ts"]), skill("d")];
    const state = createActivationState(skills);
    expect(state.visible(skills).map((s) => s.name)).toEqual(["a", "d"]);
    state.touch(["/repo/x.ts"], CWD);
    expect(state.visible(skills).map((s) => s.name)).toEqual(["a", "c", "d"]);
  });

  it("isActive is true for names it does not gate", () => {
    const state = createActivationState([skill("c", ["*.ts"])]);
    expect(state.isActive("unknown")).toBe(true);
    expect(state.isActive("c")).toBe(false);
  });

  it("add() brings in later skills; activated names stay activated", () => {
    const state = createActivationState([skill("md", ["*.md"])]);
    expect(state.touch(["/repo/a.md"], CWD)).toEqual(["md"]);
    state.add([skill("nested", ["pkg/**"]), skill("md", ["*.md", "*.txt"])]);
    expect(state.isActive("md")).toBe(true);
    expect(state.isActive("nested")).toBe(false);
    expect(state.touch(["/repo/pkg/a.txt"], CWD)).toEqual(["nested"]);
  });

  it("add() of a non-conditional skill under a conditional name ungates it", () => {
    const state = createActivationState([skill("x", ["*.md"])]);
    state.add([skill("x")]);
    expect(state.isActive("x")).toBe(true);
    expect(state.touch(["/repo/a.md"], CWD)).toEqual([]);
  });

  it("reports the per-skill pattern bound", () => {
    const state = createActivationState([skill("big", ["f{1..1500}"])]);
    expect(state.diagnostics()).toMatchObject([{ code: "field-invalid" }]);
    state.touch(["/repo/f1"], CWD);
    expect(state.diagnostics()).toHaveLength(1);
  });
});
