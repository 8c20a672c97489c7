/**
 * Skills that need something (issue #42 item 2) on the shipped bin: a need that cannot be met (a command not on
 * PATH, a variable unset, an MCP server not configured or disabled, a skill absent) makes the skill absent with
 * the need as the reason, and `list`, `doctor`, `SkillSearch` and the listing agree. Skills that need nothing
 * are untouched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { needsFromMetadata, unmetNeeds } from "../../src/skill/skill-needs.js";
import { cli, cliWithModel, json } from "../cli/run-cli.js";
import { type RequestBody, resultText, skillMd, textBlocks, toolResults } from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree, under } from "../support/tmp-tree.js";

const S = ".claude/skills";
const MISSING_COMMAND = "skillwright-test-no-such-command";
const project = {
  ".git": { dir: true },
  [`${S}/gh-helper/SKILL.md`]: skillMd(
    `description: GH-HELPER-DESCRIPTION\nmetadata:\n  requires:\n    bins: [${MISSING_COMMAND}]`,
    "GH",
  ),
  [`${S}/has-sh/SKILL.md`]: skillMd("description: Needs sh\nmetadata:\n  requires:\n    bins: [sh]", "SH"),
  [`${S}/token-skill/SKILL.md`]: skillMd(
    'description: TOKEN-DESCRIPTION\nmetadata: {"openclaw": {"requires": {"env": ["NEEDED_TOKEN"]}}}',
    "TOKEN",
  ),
  [`${S}/docs-skill/SKILL.md`]: skillMd("description: DOCS-DESCRIPTION", "DOCS"),
  [`${S}/docs-skill/agents/openai.yaml`]:
    "dependencies:\n  tools:\n    - type: mcp\n      value: docs\n      transport: streamable_http\n      url: https://example.com/mcp\n",
  [`${S}/chain/SKILL.md`]: skillMd(
    "description: CHAIN-DESCRIPTION\nmetadata:\n  requires:\n    skills: [gh-helper]",
    "C",
  ),
  [`${S}/uses-sh-skill/SKILL.md`]: skillMd(
    "description: Needs a present skill\nmetadata:\n  requires:\n    skills: [has-sh]",
    "U",
  ),
  [`${S}/plain/SKILL.md`]: skillMd("description: Needs nothing", "PLAIN"),
} as const;

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    ...under("home/repo", project),
    ...under("home/small", project),
    "home/small/.claude/settings.json": JSON.stringify({ skillListingBudget: 30 }),
    ...under("home/mcp", project),
    "home/mcp/.mcp.json": JSON.stringify({
      mcpServers: {
        docs: { command: "node", args: ["-e", "0"] },
        other: { command: "node", args: ["-e", "0"] },
      },
    }),
    "home/mcp/.claude/settings.local.json": JSON.stringify({ enabledMcpjsonServers: ["docs"] }),
    ...under("home/mcp-off", project),
    "home/mcp-off/.mcp.json": JSON.stringify({
      mcpServers: { docs: { command: "node", args: ["-e", "0"] } },
    }),
    "home/mcp-off/.claude/settings.local.json": JSON.stringify({ disabledMcpjsonServers: ["docs"] }),
    ...under("home/mcp-pending", project),
    "home/mcp-pending/.mcp.json": JSON.stringify({
      mcpServers: { docs: { command: "node", args: ["-e", "0"] } },
    }),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function run(prompt: string, turns: ScriptTurnInput[], cwd = "home/repo") {
  model = await startTestModel(turns);
  return cliWithModel(tree, model, ["-p", prompt, "--allowedTools", "Skill"], cwd);
}

describe("skill needs (pure)", () => {
  it("reads metadata.requires and OpenClaw's form; a needed skill that is absent makes its user absent", () => {
    expect(
      needsFromMetadata({ requires: { bins: ["gh"], env: "A B", mcp: ["docs"], skills: ["x"] } }),
    ).toEqual([
      { kind: "command", name: "gh" },
      { kind: "env", name: "A" },
      { kind: "env", name: "B" },
      { kind: "mcp", server: "docs" },
      { kind: "skill", name: "x" },
    ]);
    expect(needsFromMetadata({ openclaw: { requires: { bins: ["jq"] } } })).toEqual([
      { kind: "command", name: "jq" },
    ]);
    // OpenClaw's documented forms: `anyBins` (one of them), `envVars` (required unless `required: false`), and
    // its older key `clawdis`.
    expect(
      needsFromMetadata({
        clawdis: {
          requires: { anyBins: ["docker", "podman"] },
          envVars: [{ name: "API_KEY" }, { name: "OPTIONAL", required: false }],
        },
      }),
    ).toEqual([
      { kind: "any-command", names: ["docker", "podman"] },
      { kind: "env", name: "API_KEY" },
    ]);
    const either = { name: "either", metadata: { openclaw: { requires: { anyBins: ["x", "y"] } } } };
    const facts = (onPath: (n: string) => boolean) => ({
      onPath,
      env: () => undefined,
      mcpServer: () => "ready" as const,
    });
    expect(
      [
        ...unmetNeeds(
          [either],
          facts(() => false),
        ).values(),
      ].map((u) => u.why),
    ).toEqual(["missing commands on PATH: none of x, y"]);
    expect(
      unmetNeeds(
        [either],
        facts((n) => n === "y"),
      ).size,
    ).toBe(0);
    const a = { name: "a", metadata: { requires: { bins: ["gone"] } } };
    const b = { name: "b", metadata: { requires: { skills: ["a"] } } };
    const c = { name: "c", metadata: { requires: { skills: ["b"] } } };
    const unmet = unmetNeeds([a, b, c, { name: "d" }], {
      onPath: () => false,
      env: () => undefined,
      mcpServer: () => "ready",
    });
    expect([...unmet].map(([s, u]) => [s.name, u.why])).toEqual([
      ["a", "missing command gone on PATH"],
      ["b", "missing skill a"],
      ["c", "missing skill b"],
    ]);
  });
});

describe("skill needs on dist/bin", () => {
  it("list and doctor say which need is missing on the skill's line; met needs keep the skill", async () => {
    const listed = json<{ name: string; disabled?: { reason: string } }[]>(
      await cli(tree, ["list", "--json"]),
    );
    const reason = (name: string) => listed.find((s) => s.name === name)?.disabled?.reason;
    expect(reason("gh-helper")).toBe(`its need: missing command ${MISSING_COMMAND} on PATH`);
    expect(reason("token-skill")).toBe("its need: missing env NEEDED_TOKEN");
    expect(reason("docs-skill")).toBe("its need: missing MCP server docs (not configured)");
    expect(reason("chain")).toBe("its need: missing skill gh-helper");
    for (const present of ["has-sh", "uses-sh-skill", "plain"]) {
      expect(listed.find((s) => s.name === present)?.disabled, present).toBeUndefined();
    }
    const doctor = await cli(tree, ["doctor"]);
    expect(doctor.stdout).toContain(`  gh-helper  [project]  missing command ${MISSING_COMMAND} on PATH\n`);
    expect(doctor.stdout).toMatch(/^ {2}token-skill +absent \(unmet: missing env NEEDED_TOKEN\)$/m);
    // Set the variable and the skill is back.
    const withToken = await cli(tree, ["list", "--json"], "home/repo", { NEEDED_TOKEN: "t" });
    expect(
      json<{ name: string; disabled?: unknown }[]>(withToken).find((s) => s.name === "token-skill")?.disabled,
    ).toBeUndefined();
  });

  it("a configured and approved MCP server meets the need; a disabled or unapproved one does not", async () => {
    const reason = async (cwd: string) =>
      json<{ name: string; disabled?: { reason: string } }[]>(await cli(tree, ["list", "--json"], cwd)).find(
        (s) => s.name === "docs-skill",
      )?.disabled?.reason;
    expect(await reason("home/mcp")).toBeUndefined();
    expect(await reason("home/mcp-off")).toBe("its need: missing MCP server docs (disabled)");
    expect(await reason("home/mcp-pending")).toBe("its need: missing MCP server docs (waiting for approval)");
  });

  it("an absent skill is in no request: not listed, not in a note, not found by SkillSearch", async () => {
    const { result, bodies } = await run("hello", [textTurn("ok")]);
    expect(result.stdout.trim()).toBe("ok");
    const listing = textBlocks(bodies[0]?.messages[0]?.content ?? "").join("\n");
    expect(listing).toContain("\n- has-sh: Needs sh");
    expect(listing).toContain("\n- uses-sh-skill: Needs a present skill");
    expect(listing).toContain("\n- plain: Needs nothing");
    const everything = JSON.stringify(bodies);
    for (const absent of [
      "gh-helper",
      "GH-HELPER",
      "token-skill",
      "TOKEN-DESC",
      "docs-skill",
      "DOCS-DESC",
      "CHAIN-",
    ]) {
      expect(everything).not.toContain(absent);
    }
    const searched = await run(
      "find",
      [
        toolTurn(
          "SkillSearch",
          { query: "GH-HELPER-DESCRIPTION TOKEN-DESCRIPTION" },
          { match: { lastUserTextIncludes: "find" } },
        ),
        textTurn("searched", { hasToolResultFor: "SkillSearch" }),
      ],
      "home/small",
    );
    expect(searched.bodies[0]?.tools?.map((t) => t.name)).toContain("SkillSearch");
    const [found] = toolResults(searched.bodies[1] as RequestBody);
    expect(found?.is_error).not.toBe(true);
    const text = found ? resultText(found) : "";
    expect(text).not.toContain("- gh-helper");
    expect(text).not.toContain("- token-skill");
  });
});
