/**
 * Issue #25 items 4 and 5b on the shipped bin: 100 skills whose descriptions do not all fit. `doctor` shows what
 * the model sees of each skill, and it is what the first request's listing holds; `skillwright search` agrees;
 * the listing leans to the first prompt's skills and a rotation of never-used ones; a long session's requests
 * each begin with the previous request's messages.
 */
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BodyBlock, LISTING_HEADER, type RequestBody } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

const SKILLS = 100;
const BUDGET = "6000";
const PROMPT = "turn these invoices into a pdf for the accountant";
/** Sorted last, never used, and the only skill about invoices: relevant to the first prompt. */
const RELEVANT = "zz-invoice-pdf";
/** Its description is over the 1,536-char cap: listed, it is cut. */
const RELEVANT_DESCRIPTION = `Turns invoices into a PDF ${"with totals and dates ".repeat(80)}`;

interface VisibilityJson {
  name: string;
  state: "full" | "cut" | "name-only" | "absent";
  reason?: string;
  droppedChars?: number;
}
interface DoctorJson {
  listing: {
    skillSearch: boolean;
    text: string;
    firstPrompt: string;
    visibilityCounts: Record<VisibilityJson["state"], number>;
    visibility: VisibilityJson[];
  };
}

let tree: TmpTree;
beforeAll(async () => {
  assertBuilt();
  const files: Record<string, TreeEntry> = {
    "home/.keep": "",
    "repo/.git": { dir: true },
    "repo/src/app.py": "print('hi')\n",
    "repo/.claude/settings.json": JSON.stringify({ skills: { disabled: ["off-skill"] } }),
    "repo/.claude/skills/off-skill/SKILL.md": "---\ndescription: Switched off in settings\n---\nB\n",
    "repo/.claude/skills/manual-only/SKILL.md":
      "---\ndescription: Only a person runs it\ndisable-model-invocation: true\n---\nB\n",
    "repo/.claude/skills/py-helper/SKILL.md":
      '---\ndescription: Helps with python files\npaths: "*.py"\n---\nB\n',
    [`repo/.claude/skills/${RELEVANT}/SKILL.md`]: `---\ndescription: ${RELEVANT_DESCRIPTION}\n---\nB\n`,
  };
  for (let i = 0; i < SKILLS - 1; i++) {
    const name = `task-${String(i).padStart(2, "0")}`;
    files[`repo/.claude/skills/${name}/SKILL.md`] =
      `---\ndescription: Handles build step ${i} ${"of the nightly pipeline ".repeat(6)}\n---\nbody ${i}\n`;
  }
  tree = await tmpTree(files);
});
afterAll(() => tree?.cleanup());

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
    SKILLWRIGHT_LISTING_BUDGET: BUDGET,
    ...extra,
  };
}

function bin(args: string[], extra: Record<string, string> = {}) {
  return execa(process.execPath, [BIN, ...args, "--cwd", tree.path("repo"), "--home", tree.path("home")], {
    env: env(extra),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
}

/** What each listing entry shows: `desc` (`- name: …`) or `name-only` (`- name`). */
function entriesOf(listing: string): Map<string, "desc" | "name-only"> {
  const shown = new Map<string, "desc" | "name-only">();
  for (const line of listing.split("\n")) {
    const m = /^- ([^:\s]+)(: .*)?$/.exec(line);
    if (m?.[1] !== undefined) shown.set(m[1], m[2] === undefined ? "name-only" : "desc");
  }
  return shown;
}

/** A message without its `cache_control` marks (they move to the newest message; they are not content). */
function content(message: RequestBody["messages"][number]): string {
  const blocks =
    typeof message.content === "string"
      ? message.content
      : message.content.map(({ cache_control: _, ...block }: BodyBlock) => block);
  return JSON.stringify({ role: message.role, content: blocks });
}

describe("doctor shows each skill's visibility, as the first request's listing has it (issue #25 item 5b)", () => {
  it("doctor, search and a session's requests agree; no starved skills; each request extends the last", async () => {
    // Before the session: its Skill calls would record usage and change the packing doctor predicts.
    const doctor = await bin(["doctor", "--json", "--first-prompt", PROMPT]);
    expect(doctor.exitCode, doctor.stderr).toBe(0);
    const { listing } = JSON.parse(doctor.stdout) as DoctorJson;
    expect(listing.firstPrompt).toBe(PROMPT);
    const byName = new Map(listing.visibility.map((v) => [v.name, v]));

    // Every state and reason, from the one decision.
    expect(byName.get("off-skill")).toMatchObject({ state: "absent", reason: "disabled" });
    expect(byName.get("manual-only")).toMatchObject({ state: "absent", reason: "model-invocation-disabled" });
    expect(byName.get("py-helper")).toMatchObject({ state: "absent", reason: "conditional" });
    // The first prompt's skill keeps its description (cut by the cap) though it is never used and sorts last.
    expect(byName.get(RELEVANT)).toMatchObject({ state: "cut" });
    const counts = listing.visibilityCounts;
    expect(counts["name-only"]).toBeGreaterThan(0);
    expect(counts.full).toBeGreaterThan(0);
    expect(counts.full + counts.cut + counts["name-only"] + counts.absent).toBe(listing.visibility.length);

    // skillwright search ranks the prompt's skill first and reports the same visibility for each match.
    const search = await bin(["search", "--json", PROMPT]);
    expect(search.exitCode, search.stderr).toBe(0);
    const matches = JSON.parse(search.stdout) as { name: string; visibility: Omit<VisibilityJson, "name"> }[];
    expect(matches[0]?.name).toBe(RELEVANT);
    for (const match of matches) {
      const { name: _, ...seen } = byName.get(match.name) ?? { name: match.name };
      expect(match.visibility, match.name).toEqual(seen);
    }

    // A long session: SkillSearch, a Read that activates the conditional skill (a listing delta), then text.
    const model = await startTestModel([
      toolTurn("SkillSearch", { query: "invoices pdf" }, { match: { lastUserTextIncludes: "invoices" } }),
      toolTurn(
        "Read",
        { file_path: tree.path("repo/src/app.py") },
        { match: { hasToolResultFor: "SkillSearch" } },
      ),
      toolTurn("SkillSearch", { query: "python" }, { match: { hasToolResultFor: "Read" } }),
      textTurn("done"),
    ]);
    try {
      const run = await bin(["-p", PROMPT, "--allowedTools", "Read"], {
        ANTHROPIC_BASE_URL: model.server.url,
        ANTHROPIC_API_KEY: TEST_API_KEY,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toContain("done");
      const bodies = model.server.requests
        .filter((r) => r.path === "/v1/messages")
        .map((r) => r.body as RequestBody);
      expect(bodies).toHaveLength(4);
      const first = bodies[0] as RequestBody;
      expect(first.tools?.map((t) => t.name)).toContain("SkillSearch");

      // The first request's listing is doctor's, entry for entry.
      const firstMessage = first.messages[0];
      const blocks = typeof firstMessage?.content === "string" ? [] : (firstMessage?.content ?? []);
      const sent = blocks.map((b) => b.text ?? "").find((t) => t.includes(LISTING_HEADER)) ?? "";
      expect(sent).toBe(listing.text);
      const shown = entriesOf(sent);
      const expected = new Map<string, "desc" | "name-only">();
      for (const v of listing.visibility) {
        if (v.state === "full" || v.state === "cut") expected.set(v.name, "desc");
        else if (v.state === "name-only") expected.set(v.name, "name-only");
      }
      // Skills whose description is empty show `- name` and count as full: none here.
      expect(shown).toEqual(expected);
      const nameOnly = [...shown.values()].filter((s) => s === "name-only").length;
      expect(nameOnly).toBe(counts["name-only"]);
      expect(shown.size - nameOnly).toBe(counts.full + counts.cut);

      // No starved skills: besides the prompt's skill, some never-used task keeps its description while others
      // do not, and the ones that do are not simply the first in listing order.
      const tasks = [...shown].filter(([name]) => name.startsWith("task-"));
      const withDesc = tasks.filter(([, s]) => s === "desc").map(([name]) => name);
      expect(withDesc.length).toBeGreaterThan(0);
      expect(withDesc).not.toEqual(tasks.slice(0, withDesc.length).map(([name]) => name));

      // Each request begins with the previous request's messages, byte for byte; the delta came later.
      for (let i = 1; i < bodies.length; i++) {
        const before = (bodies[i - 1] as RequestBody).messages.map(content);
        const after = (bodies[i] as RequestBody).messages.map(content);
        expect(after.length).toBeGreaterThan(before.length);
        expect(after.slice(0, before.length)).toEqual(before);
      }
      const last = JSON.stringify(bodies.at(-1)?.messages);
      expect(last).toContain("py-helper");
      expect(JSON.stringify(first.messages)).not.toContain("py-helper");
    } finally {
      await model.close();
    }
  });

  it("the text report heads the visibility table with the counts and names each skill's state", async () => {
    const text = await bin(["doctor", "--first-prompt", PROMPT]);
    const { listing } = JSON.parse(
      (await bin(["doctor", "--json", "--first-prompt", PROMPT])).stdout,
    ) as DoctorJson;
    const c = listing.visibilityCounts;
    expect(text.stdout).toContain(
      `Visibility (first prompt ${JSON.stringify(PROMPT)}): ${c.full} full, ${c.cut} cut, ${c["name-only"]} name-only, ${c.absent} absent`,
    );
    expect(text.stdout).toMatch(/\n {2}off-skill +absent \(disabled\)\n/);
    expect(text.stdout).toMatch(
      new RegExp(`\\n {2}${RELEVANT} +cut \\(\\d+ chars dropped by the description cap\\)\\n`),
    );
  });
});
