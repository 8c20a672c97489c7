// Issue #45 item 2: the index the model's SkillSearch builds during a `-p` or interactive run shows progress on
// stderr as `skillwright search` does, but only on a terminal with text output: never into stdout, never with
// a JSON format, nothing for a script reading stderr.
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import type { CliIo } from "../../src/cli/io.js";
import { prepareRun } from "../../src/cli/model-setup.js";
import { runShowsSearchProgress, searchIndexLabel } from "../../src/cli/search-progress.js";
import { createEngine } from "../../src/engine/engine.js";
import { type Harness, skillMd, startHarness } from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cliWithModel } from "./run-cli.js";

let tree: TmpTree | undefined;
let harness: Harness | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  await harness?.close();
  harness = undefined;
  await tree?.cleanup();
  tree = undefined;
});

describe("whether a run shows the search index's progress", () => {
  it.each([
    { stderrIsTTY: true, outputFormat: "text", shown: true },
    { stderrIsTTY: false, outputFormat: "text", shown: false },
    { stderrIsTTY: true, outputFormat: "json", shown: false },
    { stderrIsTTY: true, outputFormat: "stream-json", shown: false },
    { stderrIsTTY: false, outputFormat: "stream-json", shown: false },
  ] as const)("stderr a terminal: $stderrIsTTY, --output-format $outputFormat → $shown", (run) => {
    expect(runShowsSearchProgress(run)).toBe(run.shown);
  });

  it("prepareRun hands the session the progress only for a terminal with text output", async () => {
    tree = await tmpTree({ "repo/.git": { dir: true }, "home/.keep": "" });
    const engine = createEngine({ cwd: tree.path("repo"), home: tree.path("home"), env: {} });
    const optionsFor = async (argv: string[], stderrIsTTY: boolean) => {
      const parsed = parseCliArgs(argv);
      if (!parsed.ok) throw new Error("the arguments do not parse");
      const io: CliIo = {
        stdout: () => {},
        stderr: () => {},
        env: { ANTHROPIC_API_KEY: "k" },
        cwd: tree?.path("repo") ?? "",
        home: tree?.path("home") ?? "",
        bundledDir: tree?.path("no-bundled") ?? "",
        stderrIsTTY,
      };
      const prepared = await prepareRun(io, { args: parsed.args, engine });
      if (!prepared.ok) throw new Error("prepareRun failed");
      await prepared.closeShell();
      return prepared.options;
    };
    try {
      expect((await optionsFor(["-p", "hi"], true)).onSearchIndexBuild).toBeTypeOf("function");
      expect((await optionsFor(["-p", "hi"], false)).onSearchIndexBuild).toBeUndefined();
      expect(
        (await optionsFor(["-p", "hi", "--output-format", "json"], true)).onSearchIndexBuild,
      ).toBeUndefined();
    } finally {
      await engine.close();
    }
  }, 60_000);
});

describe("the session's SkillSearch", () => {
  it("tells onSearchIndexBuild when it builds its index, with the skills it reads, and when it is done", async () => {
    const events: string[] = [];
    harness = await startHarness({
      files: {
        "project/.claude/skills/vault/SKILL.md": skillMd("description: Rotates vault keys", "Rotate."),
        "project/.claude/skills/tables/SKILL.md": skillMd("description: Formats tables", "Format."),
      },
      // A listing budget of 0 offers SkillSearch.
      env: { SKILLWRIGHT_LISTING_BUDGET: "0" },
      session: {
        onSearchIndexBuild: (skills) => {
          events.push(`start ${searchIndexLabel(skills)}`);
          return () => events.push("done");
        },
      },
      turns: [
        toolTurn("SkillSearch", { query: "rotate keys" }),
        textTurn("Found it.", { hasToolResultFor: "SkillSearch", toolResultIncludes: "vault" }),
      ],
    });
    await harness.send("find a skill");
    expect(events).toEqual([
      expect.stringMatching(/^start building the search index of \d+ skills$/),
      "done",
    ]);
  }, 60_000);
});

describe("-p through the shipped bin, stderr not a terminal", () => {
  it("prints the answer on stdout and no progress on stderr while SkillSearch builds its index", async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/vault/SKILL.md": "---\ndescription: Rotates vault keys\n---\nRotate.\n",
      "home/repo/.claude/skills/tables/SKILL.md": "---\ndescription: Formats tables\n---\nFormat.\n",
    });
    model = await startTestModel([
      toolTurn("SkillSearch", { query: "rotate keys" }),
      textTurn("Found it.", { hasToolResultFor: "SkillSearch", toolResultIncludes: "vault" }),
    ]);
    const { result, bodies } = await cliWithModel(tree, model, ["-p", "find a skill"], "home/repo", {
      SKILLWRIGHT_LISTING_BUDGET: "0",
    });
    expect(result.code, result.stderr).toBe(0);
    // SkillSearch ran (its result went back to the model) and built the index.
    expect(JSON.stringify(bodies.at(-1))).toContain("vault");
    expect(result.stdout).toBe("Found it.\n");
    expect(result.stderr).not.toContain("search index");
  }, 120_000);
});
