import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES, type Diagnostic } from "../../src/diagnostics.js";
import type { SkillRoot } from "../../src/discovery/skill-roots.js";
import { expandSkill } from "../../src/inline/expand-skill.js";
import { skillExpansionText } from "../../src/inline/render.js";
import { createNodeFs, type FsOps } from "../../src/io/fs.js";
import { buildListing } from "../../src/listing/packing.js";
import { createMountFs } from "../../src/serve/sessions/mount-fs.js";
import { parseFrontmatter } from "../../src/skill/frontmatter.js";
import { splitFrontmatter } from "../../src/skill/frontmatter-core.js";
import { hasControlChar, WRAPPER_TAGS } from "../../src/skill/neutralize-markup.js";
import { firstBodyLine, normalizeMeta } from "../../src/skill/schema.js";
import type { Skill } from "../../src/skill/skill.js";
import { checkSpecProfile } from "../../src/skill/spec-profile.js";
import { createSkillTool } from "../../src/skill-tool/skill-tool.js";
import { createBuiltinTools } from "../../src/tools/builtin.js";
import type { Tool, ToolResult } from "../../src/tools/define-tool.js";
import { spyFs } from "../discovery/spy-fs.js";
import { discoverSkills } from "../support/discover.js";
import { makeSkill } from "../support/make-skill.js";
import { memoryMountStores } from "../support/memory-mount.js";
import { type TreeEntry, tmpTree } from "../support/tmp-tree.js";
import { dirName, type Rng, rng, servedToolCall, skillFile, skillToolInput, text } from "./generate.js";

/*
 * The fuzz suite (issue 16): generated frontmatter heads, skill trees and Skill tool inputs thrown at discovery,
 * the listing and the Skill tool. Properties: nothing throws; every diagnostic has a known code; no wrapper tag
 * or control character from the input reaches what the model sees; bad files never stop the good ones loading;
 * bad tool input is a `<tool_use_error>`. `FUZZ_RUNS` cases in all (a short seed in `npm test`; `npm run fuzz`
 * runs 100,000), `FUZZ_SEED` picks the seed; and the served file tools (issue 39) over a session's mount file
 * system: no call throws, every failure is a tool error (an fs error names its code), and no call runs past its
 * deadline; each failure names its seed and case so it can be replayed.
 */
const RUNS = Number.parseInt(process.env.FUZZ_RUNS ?? "1500", 10);
const SEED = Number.parseInt(process.env.FUZZ_SEED ?? "20261124", 10);
/** Share of the cases per target: heads in memory, files in real trees, Skill tool inputs. */
const HEAD_CASES = Math.floor(RUNS * 0.6);
const TREE_FILES = Math.floor(RUNS * 0.1);
const TOOL_CASES = RUNS - HEAD_CASES - TREE_FILES;
/**
 * Served file-tool calls (Grep, Glob, Read, Write, Edit, LS over a session's mount file system), on top of the
 * shares above: half as many again (50,000 at `npm run fuzz`).
 */
const SERVED_CASES = Math.floor(RUNS * 0.5);
/** The served tools' deadline in the fuzz run, and how far past it a call may end on a busy machine. */
const SERVED_DEADLINE_MS = 1_000;
const SERVED_GRACE_MS = 10_000;
/** A fresh file system every this many served calls, so that what earlier calls wrote stays small. */
const SERVED_RESET_EVERY = 500;
/** Generated skill files per temp tree. */
const FILES_PER_TREE = 200;
/** Every this many trees gets a 5 MB file (the first always does). */
const BIG_FILE_EVERY = 10;

const CODES = new Set<string>(DIAGNOSTIC_CODES);
const WRAPPER = new RegExp(`<\\s*/?\\s*(${WRAPPER_TAGS.join("|")})(?![\\w-])`, "gi");
const IS_ROOT = process.getuid?.() === 0;

interface Figures {
  cases: number;
  failures: string[];
}
const figures: Record<string, Figures & { ms: number }> = {};
function figure(name: string): Figures & { ms: number } {
  figures[name] ??= { cases: 0, failures: [], ms: 0 };
  return figures[name];
}

afterAll(() => {
  const rows = Object.entries(figures).map(
    ([name, f]) =>
      `  ${name.padEnd(12)} ${String(f.cases).padStart(7)} cases  ${String(Math.round(f.ms)).padStart(6)} ms  ${f.failures.length} failures`,
  );
  const total = Object.values(figures).reduce((n, f) => n + f.cases, 0);
  const failures = Object.values(figures).reduce((n, f) => n + f.failures.length, 0);
  const ms = Object.values(figures).reduce((n, f) => n + f.ms, 0);
  console.log(
    `fuzz (seed ${SEED}, FUZZ_RUNS ${RUNS}${IS_ROOT ? ", as root: unreadable dirs simulated" : ""}):\n${rows.join("\n")}\n  total        ${String(total).padStart(7)} cases  ${String(Math.round(ms)).padStart(6)} ms  ${failures} failures`,
  );
});

/** Problems with diagnostics: unknown codes or severities. */
function badDiagnostics(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics
    .filter((d) => !CODES.has(d.code) || !["error", "warning", "info"].includes(d.severity))
    .map((d) => `uncoded diagnostic ${JSON.stringify(d)}`);
}

/** Problems with a listing block: it must open and close once, hold no other wrapper tag, no control char. */
function badListing(listing: string): string[] {
  if (listing === "") return [];
  const problems: string[] = [];
  const tags = [...listing.matchAll(WRAPPER)];
  if (
    tags.length !== 2 ||
    tags[0]?.index !== 0 ||
    !listing.startsWith("<system-reminder>\n") ||
    !listing.endsWith("\n</system-reminder>")
  ) {
    problems.push(`listing has ${tags.length} wrapper tags: ${JSON.stringify(tags.map((t) => t[0]))}`);
  }
  if (hasControlChar(listing)) problems.push("listing holds a control character");
  return problems;
}

/** Problems with text the model gets outside a block of ours: no wrapper tag, no control char from metadata. */
function badExpansion(expansion: string): string[] {
  const tags = [...expansion.matchAll(WRAPPER)];
  return tags.length === 0 ? [] : [`expansion holds wrapper tags ${JSON.stringify(tags.map((t) => t[0]))}`];
}

/** Runs `check` on one case, recording a thrown error or returned problems as failures with the case id. */
async function run(f: Figures, id: string, check: () => Promise<string[]> | string[]): Promise<void> {
  f.cases += 1;
  try {
    for (const problem of await check()) f.failures.push(`${id}: ${problem}`);
  } catch (error) {
    f.failures.push(
      `${id}: threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}

const CANARY = makeSkill({ name: "canary", description: "Always here" });

describe("fuzz", () => {
  it(`frontmatter heads → parse, fields, listing, spec profile (${HEAD_CASES} cases)`, async () => {
    const f = figure("heads");
    const started = performance.now();
    const r = rng(SEED);
    for (let i = 0; i < HEAD_CASES; i += 1) {
      const file = skillFile(r);
      const budget = r.pick([0, 200, 8_000, 1_000_000]);
      await run(f, `seed ${SEED} head ${i}`, () => {
        const split = splitFrontmatter(file);
        const parsed = split.frontmatter === undefined ? undefined : parseFrontmatter(split.frontmatter);
        const { meta, diagnostics } = normalizeMeta({
          data: parsed?.data ?? {},
          kind: "skill",
          dirName: "fuzzed",
          firstBodyLine: firstBodyLine(split.body),
          path: "/f/fuzzed/SKILL.md",
        });
        const skill: Skill = { ...makeSkill({ name: "fuzzed" }), ...meta, name: "fuzzed" };
        const listing = buildListing([CANARY, skill], { budget, usage: new Map(), now: 0 });
        const spec = checkSpecProfile(parsed?.data ?? {}, "fuzzed", "/f/fuzzed/SKILL.md", {
          ...(split.frontmatter === undefined ? { fence: split.unclosed ? "unclosed" : "missing" } : {}),
          ...(parsed?.yamlError === undefined ? {} : { yamlError: parsed.yamlError }),
        });
        const problems = [
          ...badDiagnostics(diagnostics),
          ...badDiagnostics(spec),
          ...badListing(listing.text),
        ];
        for (const field of [meta.description, meta.whenToUse, meta.argumentHint]) {
          if (field !== undefined && hasControlChar(field))
            problems.push(`control char in ${JSON.stringify(field)}`);
        }
        if (budget > 0 && !listing.text.includes("- canary")) problems.push("the canary is not listed");
        return problems;
      });
    }
    f.ms += performance.now() - started;
    expect(f.failures.slice(0, 5)).toEqual([]);
  }, 600_000);

  it(`skill trees → discovery, listing, Skill tool (${TREE_FILES} files + special cases per tree)`, async () => {
    const f = figure("trees");
    const started = performance.now();
    const r = rng(SEED ^ 0x5eed);
    const trees = Math.max(1, Math.ceil(TREE_FILES / FILES_PER_TREE));
    for (let t = 0; t < trees; t += 1) {
      const count = Math.min(FILES_PER_TREE, TREE_FILES - t * FILES_PER_TREE);
      await fuzzTree(f, r, t, Math.max(count, 1), t % BIG_FILE_EVERY === 0);
    }
    f.ms += performance.now() - started;
    expect(f.failures.slice(0, 5)).toEqual([]);
  }, 600_000);

  it(`Skill tool inputs → validation and invocation (${TOOL_CASES} cases)`, async () => {
    const f = figure("tool-inputs");
    const started = performance.now();
    const r = rng(SEED ^ 0x7001);
    const skills = [
      CANARY,
      makeSkill({ name: "deploy", body: "Deploy $ARGUMENTS </system-reminder>" }),
      makeSkill({ name: "hidden", disableModelInvocation: true }),
      makeSkill({ name: "forked", context: "fork" }),
      makeSkill({ name: "p:tool", source: "plugin" }),
      makeSkill({ name: "broken", loadBody: async () => Promise.reject(new Error("gone")) }),
    ];
    const tool = skillTool(skills, "/f");
    const names = skills.map((s) => s.name);
    for (let i = 0; i < TOOL_CASES; i += 1) {
      const input = skillToolInput(r, names);
      await run(f, `seed ${SEED} tool ${i}`, async () => toolProblems(await tool.run(input, toolContext())));
    }
    f.ms += performance.now() - started;
    expect(f.failures.slice(0, 5)).toEqual([]);
  }, 600_000);

  it(`served file tools over a mount fs → tool errors, never throws, within the deadline (${SERVED_CASES} cases)`, async () => {
    const f = figure("served-tools");
    const started = performance.now();
    const r = rng(SEED ^ 0x5e7d);
    let tools = await servedTools();
    for (let i = 0; i < SERVED_CASES; i += 1) {
      if (i > 0 && i % SERVED_RESET_EVERY === 0) tools = await servedTools();
      const call = servedToolCall(r);
      await run(f, `seed ${SEED} served ${i} (${call.tool})`, async () => {
        const tool = tools.get(call.tool);
        if (tool === undefined) return [`no tool ${call.tool}`];
        const t0 = performance.now();
        const ctx = { cwd: "/workspace", signal: new AbortController().signal, toolUseId: "toolu_fuzz" };
        const result = await tool.run(call.input, ctx);
        return servedProblems(call.tool, result, performance.now() - t0);
      });
    }
    f.ms += performance.now() - started;
    expect(f.failures.slice(0, 5)).toEqual([]);
  }, 1_800_000);
});

/** A served session's built-in file tools over its mounts, every store in memory, seeded with a few files. */
async function servedTools(): Promise<Map<string, Tool>> {
  const stores = memoryMountStores({ file_data: new Uint8Array(Buffer.from("a,b\n1,2\n")) });
  const actor = { type: "session_actor" as const, session_id: "sesn_fuzz" };
  const write = (storeId: string, path: string, content: string) =>
    stores.content.writeMemory("ws", storeId, path, content, actor);
  await write("notes", "/a.txt", "a needle here\n");
  await write("notes", "/redos.txt", `${"a".repeat(48)}!`);
  await write("notes", "/deep/x/y.txt", "deep needle\n");
  await write("frozen", "/rule.md", "do not change\n");
  await stores.scratch.write("sesn_fuzz", "/workspace/notes.md", new Uint8Array(Buffer.from("# notes\n")));
  const fs = createMountFs({
    workspaceId: "ws",
    sessionId: "sesn_fuzz",
    mounts: [
      { kind: "memory", path: "/mnt/memory/notes", storeId: "notes", readOnly: false },
      { kind: "memory", path: "/mnt/memory/frozen", storeId: "frozen", readOnly: true },
      { kind: "file", path: "/mnt/session/uploads/data.csv", fileId: "file_data" },
    ],
    content: stores.content,
    scratch: stores.scratch,
  });
  const tools = createBuiltinTools({ fs, homeDir: "/workspace", deadlineMs: SERVED_DEADLINE_MS });
  return new Map(tools.map((t) => [t.name, t]));
}

/**
 * Problems with a served tool's result: not text blocks, a thrown error that is not a file-system error (those
 * name their code: `Write failed: EINVAL: …`), or a call that ended past its deadline.
 */
function servedProblems(tool: string, result: ToolResult, ms: number): string[] {
  const problems: string[] = [];
  if (!Array.isArray(result.content) || result.content.length === 0) return ["no content"];
  for (const block of result.content) {
    if (block.type === "text" && typeof block.text !== "string") problems.push("a text block without text");
  }
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  const failed = `${tool} failed: `;
  if (text.startsWith(failed) && !/^E[A-Z]+: /.test(text.slice(failed.length))) {
    problems.push(`threw: ${JSON.stringify(text.slice(0, 300))}`);
  }
  if (ms > SERVED_DEADLINE_MS + SERVED_GRACE_MS) problems.push(`ran ${Math.round(ms)} ms, past its deadline`);
  return problems;
}

function toolContext() {
  return {
    cwd: "/tmp",
    signal: new AbortController().signal,
    toolUseId: "toolu_fuzz",
    turn: { model: "m", grants: [], removedTools: [] },
  };
}

/** The Skill tool over `skills`, invoking for real: the body is loaded and expanded, and no shell ever runs. */
function skillTool(skills: readonly Skill[], projectDir: string) {
  return createSkillTool({
    skills: () => skills,
    pluginSkillNames: () => skills.filter((s) => s.source === "plugin").map((s) => s.name),
    depth: 0,
    invoke: async ({ skill, args, signal }) => {
      if (skill.context === "fork") return { kind: "refused", message: "forks are not fuzzed" };
      const expanded = await expandSkill(skill, {
        args,
        sessionId: "fuzz",
        projectDir,
        shellOps: {
          run: () => Promise.reject(new Error("the fuzz suite never runs a shell")),
        },
        checkCommand: async () => ({ behavior: "deny", reason: "fuzz: no shell" }),
        ...(signal === undefined ? {} : { signal }),
      });
      return expanded.ok
        ? { kind: "inline", text: skillExpansionText(skill.kind, skill.baseDir, expanded.text), patch: {} }
        : { kind: "refused", message: expanded.message };
    },
  });
}

function toolProblems(result: Awaited<ReturnType<ReturnType<typeof createSkillTool>["run"]>>): string[] {
  const problems: string[] = [];
  const first = result.content[0];
  const textOf = first?.type === "text" ? first.text : undefined;
  if (result.content.length !== 1 || typeof textOf !== "string") return ["result is not one text block"];
  if (result.isError) {
    if (!textOf.startsWith("<tool_use_error>") || !textOf.endsWith("</tool_use_error>")) {
      problems.push(`error not wrapped: ${JSON.stringify(textOf.slice(0, 200))}`);
    }
    const inner = textOf.slice("<tool_use_error>".length, -"</tool_use_error>".length);
    if ([...inner.matchAll(WRAPPER)].length > 0)
      problems.push(`error text holds a wrapper tag: ${inner.slice(0, 200)}`);
  } else if (!textOf.startsWith("Launching skill: ")) {
    problems.push(`unexpected result ${JSON.stringify(textOf.slice(0, 200))}`);
  }
  for (const block of result.followUp ?? []) {
    if (block.type === "text") problems.push(...badExpansion(block.text));
  }
  return problems;
}

/**
 * One temp tree: `count` generated skill dirs and command files beside good canaries, plus the hostile cases
 * (symlink loops, a broken link, an unreadable dir, a directory named SKILL.md, binary bytes, deep nesting, a
 * FIFO and, when `big`, a 5 MB file). Discovery must load the canaries and account for every generated dir.
 */
async function fuzzTree(f: Figures, r: Rng, t: number, count: number, big: boolean): Promise<void> {
  const files: Record<string, TreeEntry> = {
    "skills/canary-skill/SKILL.md": "---\ndescription: Canary skill\n---\nCanary body $ARGUMENTS\n",
    "commands/canary-cmd.md": "---\ndescription: Canary command\n---\nCanary command body\n",
    "skills/loop-a": { symlink: "loop-b" },
    "skills/loop-b": { symlink: "loop-a" },
    "skills/self/SKILL.md": { symlink: "SKILL.md" },
    "skills/cycle/sub": { symlink: ".." },
    "skills/cycle/SKILL.md": "---\ndescription: Has a link to its parent\n---\nx\n",
    "skills/broken": { symlink: "does-not-exist" },
    "skills/dir-named-skill-md/SKILL.md/inner.txt": "x",
    "skills/binary/SKILL.md": new Uint8Array([
      0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01,
    ]),
    "skills/unreadable/SKILL.md": "---\ndescription: Unreadable\n---\nx\n",
    [`commands/${Array.from({ length: 20 }, (_, i) => `d${i}`).join("/")}/deep.md`]: "Deep command\n",
    "commands/loop": { symlink: "." },
  };
  if (big) files["skills/big/SKILL.md"] = `---\ndescription: Big\n---\n${"x".repeat(5_000_000)}\n`;
  const generated: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = dirName(r, i);
    if (r.chance(0.8)) {
      files[`skills/${name}/SKILL.md`] = skillFile(r);
      generated.push(`skills/${name}`);
    } else {
      files[`commands/${name}.md`] = skillFile(r);
      generated.push(`commands/${name}.md`);
    }
  }
  const tree = await tmpTree(files);
  try {
    await chmod(tree.path("skills/unreadable"), 0o000);
    await mkdir(tree.path("skills/fifo-skill"), { recursive: true });
    // A FIFO: opening it for reading would wait for a writer forever. Skipped where mkfifo is missing.
    const fifo = await execa("mkfifo", [tree.path("skills/fifo-skill/SKILL.md")], { reject: false });
    // Root reads a chmod 000 dir anyway: simulate the EACCES a user would get.
    const fs: FsOps = IS_ROOT
      ? spyFs((_, path) => (path.includes(`${join("skills", "unreadable")}`) ? "EACCES" : undefined)).fs
      : createNodeFs();
    const roots: SkillRoot[] = [
      { dir: tree.path("skills"), source: "project", layout: "skills", label: "fuzz skills" },
      { dir: tree.path("commands"), source: "project", layout: "commands", label: "fuzz commands" },
    ];
    await run(f, `seed ${SEED} tree ${t}`, async () => {
      const discovery = await discoverSkills({ fs, roots });
      const problems = [...badDiagnostics(discovery.diagnostics)];
      const names = new Set(discovery.skills.map((s) => s.name));
      for (const canary of ["canary-skill", "canary-cmd"]) {
        if (!names.has(canary)) problems.push(`${canary} did not load`);
      }
      const specials = ["skills/loop-a", "skills/self", "skills/broken", "skills/dir-named-skill-md"];
      specials.push("skills/unreadable", "commands/d0/d1/d2/d3/d4/d5/d6/d7");
      if (big) specials.push("skills/big");
      if (fifo.exitCode === 0) specials.push("skills/fifo-skill");
      for (const special of specials) {
        const dir = tree.path(special);
        if (!discovery.diagnostics.some((d) => d.path?.startsWith(dir)))
          problems.push(`no diagnostic for ${special}`);
      }
      for (const rel of generated) {
        const path = tree.path(rel);
        const loaded = discovery.skills.some((s) => s.filePath.startsWith(path));
        const reported = discovery.diagnostics.some((d) => d.path?.startsWith(path));
        if (!loaded && !reported) problems.push(`${rel} neither loaded nor reported`);
      }
      const listing = buildListing(discovery.skills, { budget: 1_000_000, usage: new Map(), now: 0 });
      problems.push(...badListing(listing.text));
      const tool = skillTool(discovery.skills, tree.root);
      for (const skill of discovery.skills) {
        f.cases += 1;
        const result = await tool.run({ skill: skill.name, args: text(r, 3) }, toolContext());
        problems.push(...toolProblems(result).map((p) => `${skill.name}: ${p}`));
      }
      return problems;
    });
    f.cases += count;
  } finally {
    await chmod(tree.path("skills/unreadable"), 0o755).catch(() => undefined);
    await tree.cleanup();
  }
}
