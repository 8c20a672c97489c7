// examples/web-app (SPEC §16 in miniature) runs as `npm run example:web-app` does: spawned, on the built package,
// offline, and prints the conversation and its prompt-prefix figures.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("examples/web-app", () => {
  it("runs offline with no file tools and prints a prefix that stays byte-identical", async () => {
    expect(existsSync(`${ROOT}dist/index.js`), "run `npm run build` before the tests").toBe(true);
    tree = await tmpTree({ "home/.keep": "" });
    const result = await execa("node", ["examples/web-app/main.mjs"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tree.path("home") },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    const out = result.stdout;
    expect(out).toContain(
      "tools: generate_mindmap, search_requirements, generate_outline, load_reference, Skill\n",
    );
    expect(out).toContain('[tool] Skill {"skill":"pm-skill"}\n   → Launching skill: pm-skill');
    expect(out).toContain('[tool] load_reference {"skill":"creator-skill","name":"past-posts"}');
    expect(out).not.toContain("[error]");
    expect(out).not.toContain("error:");
    const figures = out.split("\n").filter((line) => /^ {2}request \d+:/.test(line));
    expect(figures).toHaveLength(9);
    for (const line of figures.slice(1)) expect(line).toMatch(/, 100\.0% of request \d+\)$/);
    expect(out).toContain("system prompt and tools byte-identical in every request: yes");
    expect(out).toContain("system prompt holds the skill listing: yes; a working directory: no\n");
    expect(out).toContain('lazy reference "past-posts" loaded 1 time(s)');
    // Nothing was written to the home dir: the skills, the file system and the transcripts are in memory.
    expect(readdirSync(tree.path("home"))).toEqual([".keep"]);
  }, 60_000);
});
