/** Issue #25 item 4 in a session: the focus comes from the first prompt, once, and the listing never changes. */
import { afterEach, describe, expect, it } from "vitest";
import { focusSeed } from "../../src/listing/focus.js";
import { listingFocus } from "../../src/session/listing-focus.js";
import { searchCallable } from "../../src/skill-search/search.js";
import {
  type BodyBlock,
  type Harness,
  LISTING_HEADER,
  type RequestBody,
  skillMd,
  startHarness,
} from "../support/harness.js";
import { makeSkill } from "../support/make-skill.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TASKS = 30;
const files: Record<string, TreeEntry> = {
  "project/src/a.py": "print(1)\n",
  "project/.claude/skills/py-helper/SKILL.md": skillMd('description: Python helper\npaths: "*.py"', "Py."),
  "project/.claude/skills/zz-invoices/SKILL.md": skillMd(
    `description: Turns invoices into PDF files ${"with totals ".repeat(10)}`,
    "Inv.",
  ),
};
for (let i = 0; i < TASKS; i++) {
  files[`project/.claude/skills/task-${String(i).padStart(2, "0")}/SKILL.md`] = skillMd(
    `description: Build step ${i} ${"of the nightly pipeline ".repeat(5)}`,
    "T.",
  );
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A message without `cache_control` marks (they move to the newest message; they are not content). */
function content(message: RequestBody["messages"][number]): string {
  const blocks =
    typeof message.content === "string"
      ? message.content
      : message.content.map(({ cache_control: _, ...block }: BodyBlock) => block);
  return JSON.stringify({ role: message.role, content: blocks });
}

describe("listingFocus", () => {
  it("the skill search's best names for the prompt, and the prompt's seed; none for an empty prompt", () => {
    const skills = ["pdf-forms", "pdf-merge", "sql-tidy"].map((name) =>
      makeSkill({ name, description: `${name.replace("-", " ")} things` }),
    );
    const focus = listingFocus(skills, "merge pdf");
    expect(focus.relevant).toEqual(searchCallable(skills, "merge pdf", 10).map((m) => m.skill.name));
    expect(focus.relevant[0]).toBe("pdf-merge");
    expect(focus.seed).toBe(focusSeed("merge pdf"));
    expect(listingFocus(skills, "  ").relevant).toEqual([]);
  });
});

describe("a session's listing focus", () => {
  it("is the first prompt's, kept for later turns; each request begins with the previous one's messages", async () => {
    h = await startHarness({
      files,
      env: { SKILLWRIGHT_LISTING_BUDGET: "1500" },
      turns: [
        textTurn("ok", { lastUserTextIncludes: "invoices" }),
        toolTurn("Read", { file_path: "src/a.py" }, { match: { lastUserTextIncludes: "nightly" } }),
        textTurn("read", { hasToolResultFor: "Read" }),
        textTurn("bye"),
      ],
    });
    await h.send("make a pdf of these invoices");
    await h.send("now the nightly pipeline step 3");
    await h.send("thanks");
    const bodies = h.bodies();
    expect(bodies).toHaveLength(4);
    const texts = (body: RequestBody) =>
      body.messages.flatMap((m) =>
        typeof m.content === "string" ? [m.content] : m.content.map((b) => b.text ?? ""),
      );
    const listings = texts(bodies.at(-1) as RequestBody).filter((t) => t.includes(LISTING_HEADER));
    // The full listing, then the delta announcing the activated python skill; nothing re-packed.
    // One full listing, packed at the first request, never packed again (the python skill the Read activated
    // comes, if at all, as a delta within what is left of the budget).
    expect(listings.filter((t) => t.includes("- task-00"))).toHaveLength(1);
    const full = listings[0] ?? "";
    expect(texts(bodies[0] as RequestBody).filter((t) => t.includes(LISTING_HEADER))).toEqual([full]);
    // The first prompt's skill keeps its description though it sorts last and was never used; some tasks do not.
    expect(full).toContain("- zz-invoices: Turns invoices into PDF files");
    expect(full).toMatch(/\n- task-\d\d\n/);
    for (let i = 1; i < bodies.length; i++) {
      const before = (bodies[i - 1] as RequestBody).messages.map(content);
      const after = (bodies[i] as RequestBody).messages.map(content);
      expect(after.slice(0, before.length)).toEqual(before);
    }
  });
});
