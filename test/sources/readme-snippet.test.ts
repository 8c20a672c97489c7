// The README's "Skills without files" snippet is examples/web-app/snippet.mjs, byte for byte (test/readme.test.ts
// runs it through its `node examples/web-app/snippet.mjs` block); here it also runs and prints what it says.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SNIPPET = "examples/web-app/snippet.mjs";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("README: Skills without files", () => {
  it("shows examples/web-app/snippet.mjs exactly", () => {
    const readme = readFileSync(`${ROOT}README.md`, "utf8");
    const section = readme.slice(readme.indexOf("## Skills without files"));
    const shown = /```js\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(shown).toBe(readFileSync(`${ROOT}${SNIPPET}`, "utf8").trimEnd());
  });

  it("runs: the skill is loaded and the lazy reference read, with no built-in tools", async () => {
    tree = await tmpTree({ "home/.keep": "" });
    const result = await execa("node", [SNIPPET], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tree.path("home") },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      "load_reference, Skill\nSkill → Launching skill: pm-skill\nload_reference → PRD #41: shared boards",
    );
  }, 60_000);
});
