/**
 * Audit of the offline CLI against SPEC §3/§13 and issue 3 #7: `show` prints the exact expansion (inline shell
 * only with `--run-shell`), `doctor` shows the listing the model would see for a `--model`, its size against
 * the budget, and which entries are name-only and why. None of this had a test before.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { parsed, runIn } from "./support.js";

/** 20 skills of ~500-char descriptions: ~10,300 chars of entries, over 8,000 (200k window), under 30,000 (1M). */
const MANY = 20;
const longDescription = (i: number) => `Skill number ${i} ${"x".repeat(480)}`;

let tree: TmpTree;
beforeAll(async () => {
  const entries: Record<string, string | { dir: true }> = {
    "home/repo/.git": { dir: true },
    "home/repo/.claude/skills/shelly/SKILL.md":
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a skill placeholder, substituted by the engine
      "---\ndescription: Runs shell\narguments: first second\n---\nDir: ${CLAUDE_SKILL_DIR}\nSession: ${CLAUDE_SESSION_ID}\nProject: ${CLAUDE_PROJECT_DIR}\nArgs: $ARGUMENTS / $0 / $second\nNow: !`echo RAN-$((1+1))`\n",
    "home/repo/.claude/skills/toucher/SKILL.md":
      "---\ndescription: Touches a file\n---\nTouch: !`touch touched-by-show`\n",
    "home/repo/.claude/skills/plain/SKILL.md": "---\ndescription: Plain\n---\nPlain body\n",
    "home/repo/.claude/commands/legacy.md": "---\ndescription: A command\n---\nLegacy $ARGUMENTS\n",
  };
  for (let i = 0; i < MANY; i++) {
    const name = `big-${String(i).padStart(2, "0")}`;
    entries[`home/big/.claude/skills/${name}/SKILL.md`] =
      `---\ndescription: ${longDescription(i)}\n---\nbody ${i}\n`;
  }
  entries["home/big/.git"] = { dir: true };
  tree = await tmpTree(entries);
});
afterAll(() => tree.cleanup());

describe("skillwright show <name> [args]: the exact expansion (issue 3 #7, SPEC §5)", () => {
  it("prints the Base directory line and the substituted body; inline shell is not run without --run-shell", async () => {
    const result = await cli(tree, ["show", "shelly", "alpha", "beta", "--json"]);
    expect(result.code).toBe(0);
    const shown = json<{ expansion: string | null; error: string | null }>(result);
    const dir = tree.path("home/repo/.claude/skills/shelly");
    expect(shown.error).toBeNull();
    expect(shown.expansion).toBe(
      `Base directory for this skill: ${dir}\n\nDir: ${dir}\nSession: show-preview\nProject: ${tree.path("home/repo")}\nArgs: alpha beta / alpha / beta\nNow: !\`echo RAN-$((1+1))\`\n`,
    );
  });

  it("runs inline shell with --run-shell, in the project dir", async () => {
    const result = await cli(tree, ["show", "toucher", "--run-shell", "--json"]);
    expect(result.code).toBe(0);
    expect(json<{ expansion: string }>(result).expansion).toContain("Touch: (Bash completed with no output)");
    expect(existsSync(tree.path("home/repo/touched-by-show"))).toBe(true);
    const shelly = await cli(tree, ["show", "shelly", "--run-shell"]);
    expect(shelly.stdout).toContain("Now: RAN-2\n");
  });

  it("without --run-shell nothing is executed", async () => {
    const t = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/t/SKILL.md": "---\ndescription: t\n---\n!`touch never-made`\n",
    });
    try {
      const result = await cli(t, ["show", "t"]);
      expect(result.code).toBe(0);
      expect(existsSync(t.path("home/repo/never-made"))).toBe(false);
      expect(result.stdout).toContain("!`touch never-made`");
    } finally {
      await t.cleanup();
    }
  });

  it("a legacy command expands to its body alone, args appended when unused", async () => {
    const result = await cli(tree, ["show", "plain", "extra", "words", "--json"]);
    expect(json<{ expansion: string }>(result).expansion).toBe(
      `Base directory for this skill: ${tree.path("home/repo/.claude/skills/plain")}\n\nPlain body\n\n\nARGUMENTS: extra words`,
    );
    const legacy = await cli(tree, ["show", "legacy", "x", "--json"]);
    expect(json<{ expansion: string }>(legacy).expansion).toBe("Legacy x\n");
  });
});

interface DoctorListing {
  listing: {
    model: string;
    contextWindow?: number;
    budget: number;
    chars: number;
    text: string;
    nameOnly: { name: string; reason: string }[];
    cut: { name: string; reason: string }[];
  };
}

describe("skillwright doctor: the listing as the model would see it (issue 3 #7, SPEC §3 budget)", () => {
  const doctor = (model: string[]) => cli(tree, ["doctor", "--json", "--cwd", "home/big", ...model], ".");

  it("a 200k-token model gets 8,000 chars: entries go name-only, with the marker line and the cut named", async () => {
    const result = await doctor(["--model", "claude-haiku-4-5"]);
    expect(result.code).toBe(0);
    const { listing } = json<DoctorListing>(result);
    expect(listing.contextWindow).toBe(200_000);
    expect(listing.budget).toBe(8_000);
    expect(listing.chars).toBeLessThanOrEqual(8_000);
    expect(listing.nameOnly.length).toBeGreaterThan(0);
    expect(listing.nameOnly.every((e) => e.reason === "over-budget")).toBe(true);
    const n = listing.nameOnly.length;
    expect(listing.text).toContain(`(${n} skills above are listed by name only`);
    expect(listing.text).toContain("the Skill tool still accepts them");
    // each entry keeps its text or is `- name`; with no usage the session's rotation (issue #25 item 4), not
    // the listing order, picks which keep their text
    const big = Array.from({ length: MANY }, (_, i) => String(i).padStart(2, "0"));
    const full = big.filter((i) => listing.text.includes(`- big-${i}: ${longDescription(Number(i))}\n`));
    const short = big.filter((i) => listing.text.includes(`\n- big-${i}\n`));
    expect(full.length + short.length).toBe(MANY);
    expect(short.map((i) => `big-${i}`)).toEqual(listing.nameOnly.map((e) => e.name));
    expect(full.length).toBeGreaterThan(0);
  });

  it("a 1M-token model (sonnet) gets 30,000 chars (1M × 3 chars/token × 1%): everything in full", async () => {
    const { listing } = json<DoctorListing>(await doctor(["--model", "sonnet"]));
    expect(listing.model).toBe("claude-sonnet-5-5");
    expect(listing.budget).toBe(30_000);
    expect(listing.nameOnly).toEqual([]);
    expect(listing.text).not.toContain("listed by name only");
  });

  it("an unknown model falls back to 8,000", async () => {
    const { listing } = json<DoctorListing>(await doctor(["--model", "gpt-5"]));
    expect(listing.contextWindow).toBeUndefined();
    expect(listing.budget).toBe(8_000);
  });

  it("SKILLWRIGHT_LISTING_BUDGET and SLASH_COMMAND_TOOL_CHAR_BUDGET override the window in doctor too", async () => {
    for (const name of ["SKILLWRIGHT_LISTING_BUDGET", "SLASH_COMMAND_TOOL_CHAR_BUDGET"]) {
      const run = await runIn(tree, ["doctor", "--json", "--model", "sonnet"], {
        cwd: "home/big",
        env: { [name]: "1234" },
      });
      expect(parsed<DoctorListing>(run).listing.budget).toBe(1234);
    }
  });

  it("human output: size against the budget, how many are name-only, and each cut", async () => {
    const result = await cli(
      tree,
      ["doctor", "--cwd", "home/big", "--model", "claude-haiku-4-5-20251001"],
      ".",
    );
    expect(result.stdout).toMatch(
      /Listing for claude-haiku-4-5-20251001 \(context window 200000 tokens\): \d+ of 8000 chars budget, \d+ name-only/,
    );
    expect(result.stdout).toMatch(/ {2}cut: big-\d\d: over-budget \(\d+ chars dropped\)/);
    expect(result.stdout).toContain(
      "<system-reminder>\nThe following skills are available for use with the Skill tool:",
    );
  });
});
