/** `doctor`'s listing part on the shipped bin: budget settings (SPEC §3) and every omitted name, text and JSON. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstMessageTexts, INIT_ENTRY, LISTING_HEADER, skillMd } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, textTurn } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));
const SKILLS = 300;

interface DoctorJson {
  listing: {
    budget: number;
    maxDescChars: number;
    skillSearch: boolean;
    chars: number;
    text: string;
    omitted: string[];
  };
}

let tree: TmpTree;
beforeAll(async () => {
  expect(existsSync(BIN), `${BIN} is missing: run \`npm run build\` first`).toBe(true);
  const files: Record<string, TreeEntry> = { "home/.keep": "", "repo/.git": { dir: true } };
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    files[`repo/.claude/skills/${name}/SKILL.md`] =
      `---\ndescription: Task ${i} ${"z".repeat(150)}\n---\nbody\n`;
  }
  tree = await tmpTree(files);
});
afterAll(() => tree?.cleanup());

function doctor(args: string[], env: Record<string, string> = {}) {
  return execa(
    process.execPath,
    [BIN, "doctor", "--cwd", tree.path("repo"), "--home", tree.path("home"), ...args],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
        ...env,
      },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    },
  );
}

describe("doctor: the listing budget and what it leaves out (SPEC §3)", () => {
  it("--json lists every omitted name; the listing stays within the budget; SkillSearch is offered", async () => {
    const run = await doctor(["--json"], { SKILLWRIGHT_LISTING_BUDGET: "4000" });
    expect(run.exitCode).toBe(0);
    const { listing } = JSON.parse(run.stdout) as DoctorJson;
    expect(listing.budget).toBe(4_000);
    expect(listing.chars).toBeLessThanOrEqual(4_000);
    expect(listing.skillSearch).toBe(true);
    // Project skills only: the bundled ones (skill-author, …) are never left out.
    const listed = listing.text.split("\n").filter((l) => /^- skill-\d{3}/.test(l));
    expect(listed.length + listing.omitted.length).toBe(SKILLS);
    // No usage: the session's rotation (seeded by its first prompt, none here) decides which names are left
    // out (issue #25 item 4), not the end of the listing order; they are reported in listing order.
    expect(listing.omitted).toEqual([...listing.omitted].sort());
    const tail = Array.from(
      { length: listing.omitted.length },
      (_, i) => `skill-${String(SKILLS - listing.omitted.length + i).padStart(3, "0")}`,
    );
    expect(listing.omitted).not.toEqual(tail);
    const again = JSON.parse((await doctor(["--json"], { SKILLWRIGHT_LISTING_BUDGET: "4000" })).stdout);
    expect((again as DoctorJson).listing.omitted).toEqual(listing.omitted);
    expect(listing.text).toContain(`(${listing.omitted.length} more skills are not listed`);
  });

  it("the text report shows every omitted name", async () => {
    const run = await doctor([], { SKILLWRIGHT_LISTING_BUDGET: "4000" });
    const omitted = run.stdout.split("\n").filter((l) => l.startsWith("  omitted: "));
    const { listing } = JSON.parse(
      (await doctor(["--json"], { SKILLWRIGHT_LISTING_BUDGET: "4000" })).stdout,
    ) as DoctorJson;
    expect(omitted).toEqual(listing.omitted.map((n) => `  omitted: ${n} (not listed; found by SkillSearch)`));
    expect(run.stdout).toContain(`${listing.omitted.length} not listed`);
    expect(run.stdout).toContain("SkillSearch tool offered");
  });

  it("reads skillListingBudgetFraction and skillListingMaxDescChars from settings", async () => {
    const settings = await tmpTree({
      "repo/.claude/settings.json": JSON.stringify({
        skillListingBudgetFraction: 0.5,
        skillListingMaxDescChars: 100,
      }),
    });
    try {
      const run = await execa(
        process.execPath,
        [
          BIN,
          "doctor",
          "--json",
          "--model",
          "claude-haiku-4-5",
          "--cwd",
          settings.path("repo"),
          "--home",
          tree.path("home"),
        ],
        {
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
          extendEnv: false,
          reject: false,
        },
      );
      const { listing } = JSON.parse(run.stdout) as DoctorJson;
      // 200,000 tokens × 4 chars × 0.5.
      expect(listing.budget).toBe(400_000);
      expect(listing.maxDescChars).toBe(100);
    } finally {
      await settings.cleanup();
    }
  });
});

describe("doctor prints the listing a session sends", () => {
  it("the first request of a -p run holds doctor's listing text, the built-in init entry included", async () => {
    const own = await tmpTree({
      "home/.keep": "",
      "repo/.git": { dir: true },
      "repo/.claude/skills/greet/SKILL.md": skillMd("description: Greets people", "Say hello."),
      "repo/.claude/skills/ts-help/SKILL.md": skillMd("description: TypeScript help\npaths: '*.ts'", "TS."),
    });
    const model = await startTestModel([textTurn("hi")]);
    try {
      const env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        SKILLWRIGHT_MANAGED_DIR: own.path("managed"),
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
      };
      const where = ["--cwd", own.path("repo"), "--home", own.path("home")];
      const run = (args: string[]) =>
        execa(process.execPath, [BIN, ...args, ...where], { env, extendEnv: false, reject: false });
      const doctor = await run(["doctor", "--json"]);
      expect(doctor.exitCode, doctor.stderr).toBe(0);
      const { listing } = JSON.parse(doctor.stdout) as DoctorJson;
      // The conditional skill waits for a matching path; init comes after the discovered skills.
      expect(listing.text).toContain("- greet: Greets people");
      expect(listing.text).not.toContain("ts-help");
      expect(listing.text).toContain(INIT_ENTRY);

      const session = await run(["-p", "hello"]);
      expect(session.exitCode, session.stderr).toBe(0);
      const sent = firstMessageTexts(model.server.requests[0]).filter((t) => t.includes(LISTING_HEADER));
      expect(sent).toEqual([listing.text]);

      const text = await run(["doctor"]);
      expect(text.stdout.endsWith(`\n${listing.text}`)).toBe(true);
    } finally {
      await model.close();
      await own.cleanup();
    }
  });
});
