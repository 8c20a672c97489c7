import { describe, expect, it } from "vitest";
import {
  parseSkillToolInput,
  readSkillToolInputFast,
  SkillToolInput,
} from "../../src/skill-tool/validate.js";

const withProto = (proto: object, own: object): object => Object.assign(Object.create(proto), own);

/** `fast`: the zod-free path decides it (it never rejects: anything it does not take goes to zod). */
const CASES: { case: string; raw: unknown; fast: boolean; ok: boolean }[] = [
  { case: "skill only", raw: { skill: "deploy" }, fast: true, ok: true },
  { case: "skill and args", raw: { skill: "deploy", args: "prod --dry" }, fast: true, ok: true },
  { case: "keys in the other order", raw: { args: "a", skill: "deploy" }, fast: true, ok: true },
  { case: "args undefined (key kept)", raw: { skill: "deploy", args: undefined }, fast: true, ok: true },
  { case: "empty args", raw: { skill: "deploy", args: "" }, fast: true, ok: true },
  { case: "empty skill (refused later, not here)", raw: { skill: "" }, fast: true, ok: true },
  { case: "null prototype", raw: Object.assign(Object.create(null), { skill: "x" }), fast: true, ok: true },
  { case: "skill inherited", raw: withProto({ skill: "x" }, {}), fast: true, ok: true },
  { case: "extra key", raw: { skill: "deploy", extra: 1 }, fast: false, ok: false },
  { case: "extra key holding undefined", raw: { skill: "deploy", extra: undefined }, fast: false, ok: false },
  { case: "inherited extra key", raw: withProto({ extra: 1 }, { skill: "x" }), fast: false, ok: false },
  { case: "own __proto__ key", raw: JSON.parse('{"skill":"x","__proto__":1}'), fast: false, ok: false },
  { case: "args null", raw: { skill: "deploy", args: null }, fast: false, ok: false },
  { case: "args number", raw: { skill: "deploy", args: 3 }, fast: false, ok: false },
  { case: "args array", raw: { skill: "deploy", args: ["a"] }, fast: false, ok: false },
  { case: "skill missing", raw: { args: "a" }, fast: false, ok: false },
  { case: "skill undefined", raw: { skill: undefined }, fast: false, ok: false },
  { case: "skill number", raw: { skill: 3 }, fast: false, ok: false },
  { case: "skill null", raw: { skill: null }, fast: false, ok: false },
  { case: "empty object", raw: {}, fast: false, ok: false },
  { case: "null", raw: null, fast: false, ok: false },
  { case: "undefined", raw: undefined, fast: false, ok: false },
  { case: "string", raw: "deploy", fast: false, ok: false },
  { case: "number", raw: 1, fast: false, ok: false },
  { case: "array", raw: ["deploy"], fast: false, ok: false },
  { case: "array with a skill property", raw: Object.assign(["x"], { skill: "x" }), fast: false, ok: false },
  { case: "a Date", raw: new Date(0), fast: false, ok: false },
];

describe("Skill tool input: the fast path agrees with zod", () => {
  it.each(CASES)("$case", ({ raw, fast, ok }) => {
    const zod = SkillToolInput().safeParse(raw);
    expect(zod.success).toBe(ok);

    const quick = readSkillToolInputFast(raw);
    expect(quick !== undefined).toBe(fast);
    if (quick !== undefined) {
      expect(zod.success).toBe(true);
      // Same value, same keys (an `args: undefined` key included).
      expect(quick).toStrictEqual(zod.data);
      expect(Object.keys(quick)).toEqual(Object.keys(zod.data ?? {}));
    }

    const parsed = parseSkillToolInput(raw);
    expect(parsed.ok).toBe(ok);
    if (parsed.ok) expect(parsed.input).toStrictEqual(zod.data);
  });

  it("every valid case the table lists is taken by the fast path", () => {
    expect(CASES.filter((c) => c.ok).every((c) => c.fast)).toBe(true);
  });
});

describe("parseSkillToolInput: failure text", () => {
  const CALL_AS = 'Call it as {"skill": "<name>", "args": "<optional>"}.';
  it.each([
    { raw: { skill: "x", extra: 1 }, issues: '(input): Unrecognized key: "extra"' },
    { raw: { skill: "x", args: null }, issues: "args: Invalid input: expected string, received null" },
    { raw: [], issues: "(input): Invalid input: expected object, received array" },
    {
      raw: { skill: 1, args: 2, more: 3 },
      issues:
        "skill: Invalid input: expected string, received number; args: Invalid input: expected string, " +
        'received number; (input): Unrecognized key: "more"',
    },
  ])("$issues", ({ raw, issues }) => {
    expect(parseSkillToolInput(raw)).toEqual({
      ok: false,
      message: `Invalid input for Skill: ${issues}. ${CALL_AS}`,
    });
  });

  it.each([{}, { args: "a" }, { skill: undefined }, { extra: 1 }])(
    "a call without `skill` gets Claude Code's text (SPEC §14.7): %j",
    (raw) => {
      expect(parseSkillToolInput(raw)).toEqual({
        ok: false,
        message:
          "InputValidationError: Skill failed due to the following issue:\n" +
          "The required parameter `skill` is missing",
      });
    },
  );
});
