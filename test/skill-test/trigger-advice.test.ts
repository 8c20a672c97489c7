import { readFileSync } from "node:fs";
import { XMLParser } from "fast-xml-parser";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

interface Advice {
  model: string;
  budget: number;
  skills: number;
  shown: string;
  entry: string;
  cut?: { keptChars: number; totalChars: number; reason: string };
  competitors: { id: string; score: number; shared: string[]; description: string }[];
}
interface JsonReport {
  cases: { name: string; passed: boolean; failures: string[]; actual?: string; advice?: Advice }[];
}

const GREET = "Greets someone by name with a warm greeting. Use when the user asks for a greeting.";
const SKILLS = {
  "home/repo/.git/HEAD": "ref: refs/heads/main\n",
  "home/repo/.claude/skills/greet/SKILL.md": `---\nname: greet\ndescription: ${GREET}\n---\nHello $ARGUMENTS!\n`,
  "home/repo/.claude/skills/greet/tests/trigger.yaml": `cases:
  - name: greetings
    kind: trigger
    should: ["say hello to Ada"]
    runs: 2
`,
  "home/repo/.claude/skills/welcome/SKILL.md":
    "---\ndescription: Writes a warm welcome greeting for a new team member by name.\n---\nx\n",
  "home/repo/.claude/skills/farewell/SKILL.md":
    "---\ndescription: Says goodbye to someone by name.\n---\nx\n",
  "home/repo/.claude/skills/deploy/SKILL.md":
    "---\ndescription: Deploys the service to production.\n---\nx\n",
};

let tree: TmpTree | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await tree?.cleanup();
  server = undefined;
  tree = undefined;
});

/** A model that always calls the `welcome` skill instead. */
async function model(): Promise<ModelServer> {
  server = await startModelServer({
    apiKey: "sk-test",
    script: {
      turns: [
        {
          repeat: true,
          response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "welcome" } }] },
        },
      ],
    },
  });
  return server;
}

describe("skillwright test: advice for failed trigger cases", () => {
  it("shows the entry the model saw and the competing skills, in the report and in --json", async () => {
    const s = await model();
    tree = await tmpTree(SKILLS);
    const env = { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: s.url };
    const result = await cli(tree, ["test", "--json"], "home/repo", env);
    expect(result.code).toBe(1);
    const [greetings] = json<JsonReport>(result).cases;
    expect(greetings?.actual).toBe("trigger 0/2: say hello to Ada (called instead: welcome)");
    const advice = greetings?.advice;
    expect(advice).toMatchObject({
      budget: 30000,
      skills: 4,
      shown: "full",
      entry: `- greet: ${GREET}`,
    });
    // The model of the advice is the one the trigger runs asked for.
    const first = s.requests.find((r) => r.path === "/v1/messages")?.body;
    expect(advice?.model).toBe((first as { model: string }).model);
    expect(advice?.competitors.map((c) => c.id)).toEqual(["welcome", "farewell"]);
    expect(advice?.competitors[0]?.shared).toEqual(["greeting", "name", "warm"]);
    expect(advice?.competitors[0]?.score).toBeGreaterThan(advice?.competitors[1]?.score ?? 1);

    const text = await cli(tree, ["test", "--junit", "junit.xml"], "home/repo", env);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      readFileSync(tree.path("home/repo/junit.xml"), "utf8"),
    );
    expect(junit.testsuites.testsuite.testcase.failure["#text"]).toContain(
      "competing skills (description overlap, tf-idf cosine):\n  ",
    );
    expect(text.stdout).toContain(
      `    the model saw (${advice?.model}, budget 30000 chars, 4 skill(s)): full\n` +
        `      - greet: ${GREET}\n` +
        "    competing skills (description overlap, tf-idf cosine):\n" +
        `      ${advice?.competitors[0]?.score.toFixed(2)} welcome: shares greeting, name, warm\n`,
    );
  });

  it("says where the entry was cut, or that only the name was listed", async () => {
    const s = await model();
    const long = `${GREET} ${"More detail about greetings. ".repeat(60)}`;
    tree = await tmpTree({
      ...SKILLS,
      "home/repo/.claude/skills/greet/SKILL.md": `---\nname: greet\ndescription: ${long}\n---\nHello\n`,
    });
    const env = { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: s.url };
    const cut = json<JsonReport>(await cli(tree, ["test", "--json"], "home/repo", env)).cases[0]?.advice;
    expect(cut).toMatchObject({
      shown: "cut",
      cut: { keptChars: 1535, totalChars: long.trim().length, reason: "description-capped" },
    });
    const text = await cli(tree, ["test"], "home/repo", env);
    expect(text.stdout).toContain(`: cut after 1535 of ${long.trim().length} chars (description-capped)\n`);

    const tight = await cli(tree, ["test", "--json"], "home/repo", {
      ...env,
      SKILLWRIGHT_LISTING_BUDGET: "150",
    });
    expect(json<JsonReport>(tight).cases[0]?.advice).toMatchObject({ shown: "name-only", entry: "- greet" });
  });

  it("passing trigger cases carry no advice", async () => {
    server = await startModelServer({
      apiKey: "sk-test",
      script: {
        turns: [
          {
            repeat: true,
            response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "greet" } }] },
          },
        ],
      },
    });
    tree = await tmpTree(SKILLS);
    const env = { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: server.url };
    const result = await cli(tree, ["test", "--json"], "home/repo", env);
    expect(result.code).toBe(0);
    expect(json<JsonReport>(result).cases[0]?.advice).toBeUndefined();
  });
});
