import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The unbundled build (tsc's output), compared with the bundle below; CI runs `npm run build` first. */
const UNBUNDLED = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
/** The shipped bin (package.json "bin"): the same CLI bundled by scripts/bundle.mjs. */
const BUNDLED_BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.claude/skills/from-home/SKILL.md": "---\ndescription: user skill\n---\n",
    "proj/.git": { dir: true },
    "proj/.claude/skills/from-proj/SKILL.md": "---\ndescription: project skill\n---\n",
  });
});
afterAll(() => tree.cleanup());

describe("the built bin", () => {
  it("node dist/bin/main.js list --json --cwd … --home …", async () => {
    expect(existsSync(BUNDLED_BIN), `${BUNDLED_BIN} is missing: run \`npm run build\` before the tests`).toBe(
      true,
    );
    const result = await execa(
      process.execPath,
      [BUNDLED_BIN, "list", "--json", "--cwd", tree.path("proj"), "--home", tree.path("home")],
      { env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") }, reject: false, timeout: 20_000 },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const skills = JSON.parse(result.stdout) as { name: string; source: string; path: string }[];
    expect(skills.filter((s) => s.path.startsWith(tree.root)).map((s) => [s.name, s.source])).toEqual([
      ["from-home", "user"],
      ["from-proj", "project"],
    ]);
  });

  it("writes all of a large --json output to a pipe before exiting", async () => {
    const files: Record<string, string> = { "many/.git/HEAD": "" };
    for (let i = 0; i < 1_200; i += 1) {
      files[`many/.claude/skills/skill-${i}/SKILL.md`] =
        `---\ndescription: skill ${i}, with a description long enough that the JSON fills a pipe many times\n---\n`;
    }
    const many = await tmpTree(files);
    try {
      const result = await execa(
        process.execPath,
        [BUNDLED_BIN, "list", "--json", "--cwd", many.path("many"), "--home", many.path("home")],
        { env: { SKILLWRIGHT_MANAGED_DIR: many.path("managed") }, reject: false, timeout: 30_000 },
      );
      expect(result.stdout.length).toBeGreaterThan(200_000);
      const skills = JSON.parse(result.stdout) as { name: string }[];
      expect(skills.filter((s) => /^skill-\d+$/.test(s.name))).toHaveLength(1_200);
    } finally {
      await many.cleanup();
    }
  });

  it("the bundled bin lists, shows and validates like the unbundled build", async () => {
    expect(existsSync(BUNDLED_BIN), `${BUNDLED_BIN} is missing: run \`npm run build\``).toBe(true);
    const dirs = ["--cwd", tree.path("proj"), "--home", tree.path("home")];
    const env = { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") };
    const run = (bin: string, args: string[]) =>
      execa(process.execPath, [bin, ...args], { env, reject: false });
    for (const args of [
      ["list", "--json", ...dirs],
      ["show", "from-proj", ...dirs],
      ["validate", tree.path("proj")],
    ]) {
      const [bundled, plain] = await Promise.all([run(BUNDLED_BIN, args), run(UNBUNDLED, args)]);
      expect(bundled.stderr).toBe(plain.stderr);
      expect(bundled.exitCode).toBe(plain.exitCode);
      expect(bundled.stdout).toBe(plain.stdout);
    }
    // The bundle resolves the package's own bundled-skills/ dir, as the unbundled build does.
    const listed = JSON.parse((await run(BUNDLED_BIN, ["list", "--json", ...dirs])).stdout) as {
      source: string;
    }[];
    expect(listed.some((s) => s.source === "bundled")).toBe(true);
  });

  it("exits 1 for an unknown skill", async () => {
    expect(existsSync(BUNDLED_BIN)).toBe(true);
    const args = ["--cwd", tree.path("proj"), "--home", tree.path("home")];
    const show = await execa(process.execPath, [BUNDLED_BIN, "show", "nope", ...args], { reject: false });
    expect(show.exitCode).toBe(1);
    expect(show.stderr).toContain("Unknown skill: nope");
  });
});

describe("the bundled bin on heads that need the full YAML parser", () => {
  const heads: Record<string, { head: string; description: string }> = {
    "block-scalar": {
      head: "description: |\n  Line one.\n  Line two.\n",
      description: "Line one. Line two.",
    },
    "folded-scalar": { head: "description: >-\n  Folded\n  text\n", description: "Folded text" },
    "nested-map": { head: "description: nested\nmetadata:\n  a:\n    b: c\n", description: "nested" },
    "list-tools": {
      head: "description: listed\nallowed-tools:\n  - Read\n  - Bash(git:*)\n",
      description: "listed",
    },
    anchors: { head: "base: &d anchored text\ndescription: *d\n", description: "anchored text" },
  };

  it("parses every one with yaml: no yaml-invalid, the values as YAML reads them", async () => {
    expect(existsSync(BUNDLED_BIN), `${BUNDLED_BIN} is missing: run \`npm run build\``).toBe(true);
    const files: Record<string, string> = { "p/.git/HEAD": "" };
    for (const [name, { head }] of Object.entries(heads))
      files[`p/.claude/skills/${name}/SKILL.md`] = `---\n${head}---\nBody\n`;
    const yamlTree = await tmpTree(files);
    try {
      const result = await execa(
        process.execPath,
        [BUNDLED_BIN, "doctor", "--json", "--cwd", yamlTree.path("p"), "--home", yamlTree.path("home")],
        {
          env: { SKILLWRIGHT_MANAGED_DIR: yamlTree.path("managed"), SKILLWRIGHT_DISCOVERY_CACHE: "off" },
          reject: false,
        },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).not.toContain("yaml-invalid");
      const listed = await execa(
        process.execPath,
        [BUNDLED_BIN, "list", "--json", "--cwd", yamlTree.path("p"), "--home", yamlTree.path("home")],
        { env: { SKILLWRIGHT_MANAGED_DIR: yamlTree.path("managed"), SKILLWRIGHT_DISCOVERY_CACHE: "off" } },
      );
      const skills = JSON.parse(listed.stdout) as { name: string; description: string }[];
      for (const [name, { description }] of Object.entries(heads)) {
        expect(skills.find((s) => s.name === name)?.description, name).toBe(description);
      }
    } finally {
      await yamlTree.cleanup();
    }
  });
});

describe("doctor --strict (npm run doctor, the CI gate)", () => {
  const EXAMPLE = fileURLToPath(new URL("../../examples/project", import.meta.url));

  it("the example project is clean: exit 0 and no diagnostics", async () => {
    const result = await execa(process.execPath, [BUNDLED_BIN, "doctor", "--strict", "--cwd", EXAMPLE], {
      env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed"), SKILLWRIGHT_DISCOVERY_CACHE: "off" },
      reject: false,
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("Diagnostics: none");
    expect(result.exitCode).toBe(0);
  });

  it("exits 1 on a warning and still prints the report", async () => {
    const warned = await tmpTree({
      "p/.git/HEAD": "",
      "p/.claude/skills/odd/SKILL.md": "---\ndescription: [unclosed\n---\nBody\n",
    });
    try {
      const args = ["doctor", "--strict", "--cwd", warned.path("p"), "--home", warned.path("home")];
      const env = { SKILLWRIGHT_MANAGED_DIR: warned.path("managed"), SKILLWRIGHT_DISCOVERY_CACHE: "off" };
      const strict = await execa(process.execPath, [BUNDLED_BIN, ...args], { env, reject: false });
      expect(strict.stdout).toContain("yaml-invalid");
      expect(strict.stderr).toContain("doctor --strict");
      expect(strict.exitCode).toBe(1);
      const lenient = await execa(process.execPath, [BUNDLED_BIN, ...args.filter((a) => a !== "--strict")], {
        env,
        reject: false,
      });
      expect(lenient.exitCode).toBe(0);
    } finally {
      await warned.cleanup();
    }
  });
});
