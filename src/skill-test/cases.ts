import { isNode, LineCounter, parseDocument } from "yaml";
import * as z from "zod";
import { ScriptTurn } from "../dev/model-script.js";
import { DEFAULT_MAX_ITERATIONS, MAX_ITERATIONS, MAX_RUBRIC_CHARS } from "../outcome/outcome-prompts.js";

/** A stubbed inline-shell command: its stdout, or the whole result. */
const StubOutput = z.union([
  z.string(),
  z
    .object({
      stdout: z.string().default(""),
      stderr: z.string().default(""),
      exit_code: z.number().int().default(0),
    })
    .strict(),
]);
export type StubOutput = z.infer<typeof StubOutput>;

/** One string or several: each must hold. */
const OneOrMany = z.union([z.string(), z.array(z.string()).min(1)]);

/** What an expanded body must be: exact text, text it contains, patterns it matches (all given must hold). */
const ExpansionExpect = z
  .object({
    exact: z.string().optional(),
    contains: OneOrMany.optional(),
    not_contains: OneOrMany.optional(),
    regex: OneOrMany.optional(),
  })
  .strict()
  .refine((e) => Object.values(e).some((v) => v !== undefined), {
    message: "give at least one of exact, contains, not_contains, regex",
  });

/** `args` → expected body, inline shell run in a temp copy of the skill dir or answered by `stubs`. */
export const ExpansionCase = z
  .object({
    kind: z.literal("expansion"),
    name: z.string().min(1),
    args: z.string().default(""),
    /** Command (as written in the body) → output. When given, no command runs; an unstubbed one fails. */
    stubs: z.record(z.string(), StubOutput).optional(),
    expect: ExpansionExpect,
  })
  .strict();
export type ExpansionCase = z.infer<typeof ExpansionCase>;

/** A skill listed beside the one under test. */
const Neighbour = z.object({ name: z.string().min(1), description: z.string() }).strict();
/** `count` generated neighbours `neighbour-1…`, each with `description`. */
const NeighbourFill = z
  .object({ count: z.number().int().nonnegative().max(100_000), description: z.string() })
  .strict();

/** How the skill shows in the listing: its whole entry, its name only, or not at all. */
export const LISTING_STATES = ["full", "name-only", "omitted"] as const;
export type ListingState = (typeof LISTING_STATES)[number];

/** The skill's listing entry for a model (its context window sets the budget) among neighbours. */
export const ListingCase = z
  .object({
    kind: z.literal("listing"),
    name: z.string().min(1),
    model: z.string().min(1).default("sonnet"),
    neighbours: z.array(z.union([Neighbour, NeighbourFill])).default([]),
    expect: z.enum(LISTING_STATES),
  })
  .strict();
export type ListingCase = z.infer<typeof ListingCase>;

/**
 * Prompts that should (`should`) and should not (`should_not`) make the model call this skill, each run `runs`
 * times against the model of `ANTHROPIC_API_KEY`/`ANTHROPIC_BASE_URL` with the project's real listing. A
 * `should` prompt passes when its trigger rate is at least `threshold`, a `should_not` one when at most
 * `1 - threshold`.
 */
export const TriggerCase = z
  .object({
    kind: z.literal("trigger"),
    name: z.string().min(1),
    should: z.array(z.string().min(1)).default([]),
    should_not: z.array(z.string().min(1)).default([]),
    runs: z.number().int().min(1).max(20).default(3),
    threshold: z.number().min(0).max(1).default(0.66),
  })
  .strict()
  .refine((c) => c.should.length + c.should_not.length > 0, { message: "give should or should_not prompts" });
export type TriggerCase = z.infer<typeof TriggerCase>;

/** Text checks: every given one must hold. */
const TextChecks = {
  contains: OneOrMany.optional(),
  not_contains: OneOrMany.optional(),
  regex: OneOrMany.optional(),
};

/** What a recorded request must hold: its strings (system, messages, tool calls and results) joined. */
const RequestExpect = z
  .object({
    /** 0-based index among the main agent's requests; absent: some request (any agent) must match. */
    request: z.number().int().nonnegative().optional(),
    ...TextChecks,
  })
  .strict();

/** A Skill call the engine ran (`skill_invoked`), with its arguments when given. */
const SkillCallExpect = z.object({ skill: z.string().min(1), args: z.string().optional() }).strict();

/** Some result of `tool` must hold. */
const ToolResultExpect = z
  .object({ tool: z.string().min(1), is_error: z.boolean().optional(), ...TextChecks })
  .strict();

/** A file of the temp project copy after the session (relative to the project dir). */
const FileExpect = z
  .object({
    path: z.string().min(1),
    exists: z.boolean().default(true),
    exact: z.string().optional(),
    ...TextChecks,
  })
  .strict();

/** What a session must have done; at least one kind of expectation. */
const SessionExpect = z
  .object({
    requests: z.array(RequestExpect).optional(),
    /** Skill calls that must run, in this order (others may run between them). */
    skill_calls: z.array(SkillCallExpect).optional(),
    tool_results: z.array(ToolResultExpect).optional(),
    files: z.array(FileExpect).optional(),
    /** Every hook command run, in order: `Event` or `Event:Tool` (e.g. `PreToolUse:Write`). */
    hooks: z.array(z.string().min(1)).optional(),
    /** The assistant's text of the last turn. */
    reply: z.object(TextChecks).strict().optional(),
  })
  .strict()
  .refine((e) => Object.values(e).some((v) => v !== undefined), {
    message: "give at least one of requests, skill_calls, tool_results, files, hooks, reply",
  });

/**
 * What a `--baseline` run must show of a case: the side that must win (default `with`, the skill in the catalog)
 * and by how much its mean pass rate must exceed the other side's, in absolute points (`"+0.2"` or `0.2`).
 * Without `passRate` the winner's mean must be strictly higher. Ignored by runs without `--baseline`.
 */
export const BaselinePin = z
  .object({
    wins: z.enum(["with", "without"]).default("with"),
    passRate: z
      .union(
        [
          z.number().min(0).max(1),
          z
            .string()
            .regex(/^\+?(0(\.\d+)?|1(\.0+)?)$/, { message: 'a margin from "+0" to "+1", e.g. "+0.2"' })
            .transform(Number),
        ],
        { error: 'a margin from 0 to 1, as "+0.2" or 0.2' },
      )
      .optional(),
  })
  .strict();
export type BaselinePin = z.infer<typeof BaselinePin>;

/**
 * A scripted conversation: `prompt`(s) sent in order to the engine's real session in a temp copy of the project,
 * the model played by the scripted server with `turns` (the `skillwright dev model-server` script format).
 */
export const SessionCase = z
  .object({
    kind: z.literal("session"),
    name: z.string().min(1),
    prompt: OneOrMany,
    turns: z.array(ScriptTurn).min(1),
    /** Allow rules added for the run (headless: anything that asks is refused). */
    allowed_tools: z.array(z.string().min(1)).default([]),
    model: z.string().min(1).optional(),
    expect: SessionExpect,
    baseline: BaselinePin.optional(),
  })
  .strict();
export type SessionCase = z.infer<typeof SessionCase>;

/** The results a graded case may expect its loop to end with. */
export const GRADED_RESULTS = ["satisfied", "max_iterations_reached", "failed"] as const;

/**
 * The write–grade–revise loop (serve's `user.define_outcome`) against a scripted model: the agent works on
 * `description` in a temp copy of the project, a grader with a fresh context and read-only tools judges each
 * attempt against `rubric`, and a revision it asks for goes back to the agent, up to `max_iterations`
 * evaluations. `turns` play both: the grader's requests carry the grader's system prompt (match them with
 * `systemIncludes: "You are a grader."`) and its answer ends with a JSON verdict.
 */
export const GradedCase = z
  .object({
    kind: z.literal("graded"),
    name: z.string().min(1),
    description: z.string().min(1),
    rubric: z.string().min(1).max(MAX_RUBRIC_CHARS),
    max_iterations: z.number().int().min(1).max(MAX_ITERATIONS).default(DEFAULT_MAX_ITERATIONS),
    turns: z.array(ScriptTurn).min(1),
    allowed_tools: z.array(z.string().min(1)).default([]),
    model: z.string().min(1).optional(),
    expect: z
      .object({
        result: z.enum(GRADED_RESULTS),
        /** How many evaluations ran. */
        evaluations: z.number().int().min(1).max(MAX_ITERATIONS).optional(),
      })
      .strict(),
    baseline: BaselinePin.optional(),
  })
  .strict();
export type GradedCase = z.infer<typeof GradedCase>;

/** A test case of one skill. */
export const TestCase = z.discriminatedUnion("kind", [
  ExpansionCase,
  ListingCase,
  TriggerCase,
  SessionCase,
  GradedCase,
]);
export type TestCase = z.infer<typeof TestCase>;

/** A `tests/*.yaml` file; its `baseline` pins every session and graded case that gives none of its own. */
export const CasesFile = z.object({ baseline: BaselinePin.optional(), cases: z.array(TestCase) }).strict();

/** A mistake in a tests file, with the 1-based line (and column) of the value at fault. */
export interface CaseFileError {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** A case with where it was written. */
export interface LocatedCase {
  file: string;
  /** The case's position in the file's `cases`. */
  index: number;
  line: number;
  case: TestCase;
  /** The baseline the case must beat under `--baseline`: its own, else its file's. */
  baseline?: BaselinePin;
}

export type ParsedCases = { ok: true; cases: LocatedCase[] } | { ok: false; errors: CaseFileError[] };

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
}

/**
 * Parses and checks a tests file. Every YAML error and every schema mistake is reported with its line: the
 * position of the deepest node of the issue's path that exists (the parent map for a missing key). Pure.
 */
export function parseCasesFile(file: string, text: string): ParsedCases {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (offset: number) => lineCounter.linePos(offset);
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => {
        const pos = at(e.pos[0]);
        return { file, line: pos.line, column: pos.col, message: e.message.split("\n")[0] ?? e.message };
      }),
    };
  }
  const nodeOffset = (path: readonly PropertyKey[]): number => {
    for (let n = path.length; n >= 0; n--) {
      const keys = path.slice(0, n).map((k) => (typeof k === "symbol" ? String(k) : k));
      const node = n === 0 ? doc.contents : doc.getIn(keys, true);
      if (isNode(node) && node.range) return node.range[0];
    }
    return 0;
  };
  const result = CasesFile.safeParse(doc.toJS());
  if (!result.success) {
    return {
      ok: false,
      errors: result.error.issues.map((issue) => {
        const pos = at(nodeOffset(issue.path));
        const where = issue.path.length > 0 ? `${pathText(issue.path)}: ` : "";
        return { file, line: pos.line, column: pos.col, message: `${where}${issue.message}` };
      }),
    };
  }
  return {
    ok: true,
    cases: result.data.cases.map((c, i) => {
      const pin =
        c.kind === "session" || c.kind === "graded" ? (c.baseline ?? result.data.baseline) : undefined;
      return {
        file,
        index: i,
        line: at(nodeOffset(["cases", i])).line,
        case: c,
        ...(pin === undefined ? {} : { baseline: pin }),
      };
    }),
  };
}
