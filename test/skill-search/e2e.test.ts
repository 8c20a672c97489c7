/**
 * SPEC §3 and §14.15 end to end on the shipped bin: 10,000 skills overflow the listing; the model calls
 * SkillSearch, finds a skill the listing left out, and invokes it with Skill.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { omittedNote } from "../../src/listing/overflow.js";
import { startTestModel, TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));
const SKILLS = 10_000;
/** The default model (sonnet) has a 1M-token window: 30,000 chars. */
const BUDGET = 30_000;
const HEADER = "The following skills are available for use with the Skill tool:";

interface Body {
  tools: { name: string }[];
  messages: { role: string; content: string | { type: string; text?: string; content?: unknown }[] }[];
}

const texts = (body: Body): string[] =>
  body.messages.flatMap((m) =>
    typeof m.content === "string"
      ? [m.content]
      : m.content.flatMap((b) => {
          if (b.type === "text") return [b.text ?? ""];
          if (b.type !== "tool_result") return [];
          const c = b.content;
          return typeof c === "string" ? [c] : Array.isArray(c) ? c.map((x) => String(x?.text ?? "")) : [];
        }),
  );

let tree: TmpTree;
beforeAll(async () => {
  expect(existsSync(BIN), `${BIN} is missing: run \`npm run build\` first`).toBe(true);
  const files: Record<string, TreeEntry> = {
    "home/.keep": "",
    "repo/.git": { dir: true },
    // Not used and unrelated to the first prompt: the seeded rotation of that prompt leaves it out.
    "repo/.claude/skills/vault-rotate/SKILL.md":
      "---\ndescription: Rotates the API keys kept in the vault\nwhen_to_use: when keys leak\n---\nVAULT-ROTATE-BODY $ARGUMENTS\n",
    "repo/.claude/skills/vault-secret/SKILL.md":
      "---\ndescription: Rotates vault keys by hand\ndisable-model-invocation: true\n---\nSECRET\n",
    "repo/.claude/skills/vault-conditional/SKILL.md":
      '---\ndescription: Rotates vault keys for python\npaths: "*.py"\n---\nCOND\n',
  };
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(5, "0")}`;
    files[`repo/.claude/skills/${name}/SKILL.md`] =
      `---\ndescription: Handles task number ${i} of the project's build\n---\nbody ${i}\n`;
  }
  tree = await tmpTree(files);
}, 120_000);
afterAll(() => tree?.cleanup());

describe("skill search with 10,000 skills (SPEC §3, §14.15), on dist/bin", () => {
  it("the listing stays within budget; SkillSearch finds an unlisted skill; Skill invokes it", async () => {
    const model = await startTestModel([
      toolTurn(
        "SkillSearch",
        { query: "rotate vault keys" },
        { match: { lastUserTextIncludes: "secrets got out" } },
      ),
      toolTurn(
        "Skill",
        { skill: "vault-rotate", args: "prod" },
        { match: { hasToolResultFor: "SkillSearch" } },
      ),
      textTurn("rotated", { hasToolResultFor: "Skill" }),
    ]);
    try {
      const run = await execa(
        process.execPath,
        [
          BIN,
          "--cwd",
          tree.path("repo"),
          "--home",
          tree.path("home"),
          "-p",
          "our secrets got out",
          "--allowedTools",
          "Skill",
        ],
        {
          env: {
            PATH: process.env.PATH ?? "/usr/bin:/bin",
            SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
            ANTHROPIC_BASE_URL: model.server.url,
            ANTHROPIC_API_KEY: TEST_API_KEY,
          },
          extendEnv: false,
          reject: false,
          timeout: 90_000,
        },
      );
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain("rotated");
      const bodies = model.server.requests
        .filter((r) => r.path === "/v1/messages")
        .map((r) => r.body as Body);
      expect(bodies).toHaveLength(3);
      const [first, second, third] = bodies as [Body, Body, Body];

      // The tools array holds SkillSearch from the first request and never changes.
      const toolNames = first.tools.map((t) => t.name);
      expect(toolNames).toEqual(expect.arrayContaining(["Skill", "SkillSearch"]));
      expect(second.tools).toEqual(first.tools);
      expect(third.tools).toEqual(first.tools);

      // The listing: within 30,000 chars, the unlisted skill not in it, the closing line pointing to SkillSearch.
      const listing = texts(first).find((t) => t.includes(HEADER)) ?? "";
      const content = listing.split("\n").slice(3, -1).join("\n");
      expect(content.length).toBeLessThanOrEqual(BUDGET);
      const entries = content.split("\n").filter((l) => l.startsWith("- "));
      // Project skills: the 10,000 plus vault-rotate (the others are not listable); bundled ones are never left out.
      const projectEntries = entries.filter((l) => /^- (skill-\d+|vault-)/.test(l));
      const omitted = SKILLS + 1 - projectEntries.length;
      expect(omitted).toBeGreaterThan(7_000);
      expect(content.endsWith(`\n\n${omittedNote(omitted, true)}`)).toBe(true);
      expect(listing).not.toContain("vault-rotate");

      // The search result lists it first as a listing entry, and never the not-invocable or un-activated skills
      // (bodies are searched too, so a bundled skill may follow it).
      const found = texts(second).find((t) => /^\d+ skills? match(es)? "rotate vault keys"/.test(t)) ?? "";
      expect(found.split("\n")[1]).toBe(
        "- vault-rotate: Rotates the API keys kept in the vault - when keys leak",
      );
      expect(found).not.toContain("vault-secret");
      expect(found).not.toContain("vault-conditional");

      // Skill invokes it as any listed skill.
      const after = texts(third);
      expect(after).toContain("Launching skill: vault-rotate");
      expect(after.some((t) => t.includes("VAULT-ROTATE-BODY prod"))).toBe(true);
    } finally {
      await model.close();
    }
  }, 120_000);
});
