// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${@:N} placeholders of prompt templates, not JS templates
/** Prompt templates through the shipped bin: `-p "/name args"` against the scripted model server, and `list`. */
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import type { RequestBody } from "../support/harness.js";
import { lastUser, skillMd, textBlocks } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN, cli, json } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  assertBuilt();
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/.skillwright/prompts/review.md": "USER REVIEW $@",
    "home/.skillwright/prompts/greet.md": "Say hello to $1 and ${@:2:2}.",
    "home/repo/.skillwright/prompts/review.md":
      "---\ndescription: Review some files\n---\nReview $1 for ${@:2}.\n",
    "home/repo/.skillwright/prompts/pdf.md": "TEMPLATE PDF $@",
    "home/repo/.claude/skills/pdf/SKILL.md": skillMd("description: PDF work", "Use pdftk on $ARGUMENTS."),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function runBin(turns: ScriptTurnInput[], prompt: string) {
  model = await startTestModel(turns);
  const run = await execa(process.execPath, [BIN, "-p", prompt, "--allowedTools", "Skill"], {
    cwd: tree.path("home/repo"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: tree.path("home"),
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.server.url,
      SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
    },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  const bodies = model.server.requests
    .filter((r) => r.path === "/v1/messages")
    .map((r) => r.body as RequestBody);
  return { run, bodies };
}

const userTexts = (body: RequestBody | undefined) =>
  body === undefined
    ? []
    : textBlocks(lastUser(body).content).filter((t) => !t.startsWith("<system-reminder>"));

describe("prompt templates (node dist/bin/main.js)", () => {
  it('-p "/review …": the project template wins over the user one; args split shell-style', async () => {
    const { run, bodies } = await runBin([textTurn("reviewed")], `/review "src/a b.ts" security style`);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("reviewed");
    expect(userTexts(bodies[0])).toEqual(["Review src/a b.ts for security style."]);
  });

  it('-p "/greet …": a user template, positional and ${@:N:L}', async () => {
    const { bodies } = await runBin([textTurn("hi")], "/greet ann bob cy dee");
    expect(userTexts(bodies[0])).toEqual(["Say hello to ann and bob cy."]);
  });

  it("a template named like a skill: the skill wins", async () => {
    const { bodies } = await runBin([textTurn("ok")], "/pdf a.pdf");
    const texts = userTexts(bodies[0]).join("\n");
    expect(texts).toContain("Use pdftk on a.pdf.");
    expect(texts).not.toContain("TEMPLATE PDF");
  });

  it("list shows the templates (text), and --json adds prompt-template entries after the skills", async () => {
    const text = await cli(tree, ["list"]);
    expect(text.stdout).toContain(
      `Prompt templates:\n/review  [project]\n    Review some files\n    ${tree.path("home/repo/.skillwright/prompts/review.md")}\n/greet  [user]`,
    );
    expect(text.stdout).not.toContain("/pdf  [");
    const entries = json<Array<Record<string, unknown>>>(await cli(tree, ["list", "--json"]));
    expect(entries[0]).toMatchObject({ name: "pdf" });
    expect(entries.filter((e) => e.kind === "prompt-template")).toEqual([
      {
        kind: "prompt-template",
        name: "review",
        description: "Review some files",
        source: "project",
        path: tree.path("home/repo/.skillwright/prompts/review.md"),
      },
      {
        kind: "prompt-template",
        name: "greet",
        description: "",
        source: "user",
        path: tree.path("home/.skillwright/prompts/greet.md"),
      },
    ]);
  });
});
