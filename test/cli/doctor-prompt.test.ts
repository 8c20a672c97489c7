import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, cli, json } from "./run-cli.js";

let tree: TmpTree | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const SKILL = "---\nname: pdf\ndescription: Fill PDF forms\n---\nBody.\n";

describe("skillwright doctor --prompt (built bin)", () => {
  it("prints every part of the assembled prompt, in order, each headed by its origin", async () => {
    tree = await tmpTree({
      "home/.skillwright/SYSTEM.md": "USER BASE",
      "home/repo/.git/HEAD": "ref: refs/heads/main\n",
      "home/repo/.skillwright/SYSTEM.md": "PROJECT BASE",
      "home/repo/.skillwright/APPEND_SYSTEM.md": "FILE APPEND",
      "home/repo/AGENTS.md": "Use pnpm.",
      "home/repo/.claude/skills/pdf/SKILL.md": SKILL,
    });
    const t = tree;
    const result = await cli(t, [
      "doctor",
      "--prompt",
      "--append-system-prompt",
      "FLAG APPEND",
      "--skill-listing",
      "system",
      "--disallowedTools",
      "Bash",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const headers = result.stdout.split("\n").filter((l) => l.startsWith("── "));
    expect(headers).toEqual([
      `── base (${t.path("home/repo/.skillwright/SYSTEM.md")})`,
      "── tools (tools)",
      `── append (${t.path("home/repo/.skillwright/APPEND_SYSTEM.md")})`,
      "── append (option)",
      `── context (${t.path("home/repo/AGENTS.md")})`,
      "── skills (skills)",
      "── environment (built-in)",
    ]);
    expect(result.stdout).toContain("PROJECT BASE");
    expect(result.stdout).not.toContain("USER BASE");
    expect(result.stdout).toContain("- Read: ");
    expect(result.stdout).not.toContain("- Bash: ");
    expect(result.stdout).toContain("<name>\npdf\n</name>");
    // As in a session, the built-in init command is in the catalog.
    expect(result.stdout).toContain("<name>\ninit\n</name>");
    expect(result.stdout).toContain(`Working directory: ${t.path("home/repo")}`);
  });

  it("--json gives the parts and the text; --system-prompt replaces SYSTEM.md", async () => {
    tree = await tmpTree({ "home/repo/.skillwright/SYSTEM.md": "FILE BASE" });
    const result = await cli(tree, ["doctor", "--prompt", "--json", "--system-prompt", "FLAG BASE"]);
    const out = json<{ parts: { kind: string; origin: string; text: string }[]; text: string }>(result);
    expect(out.parts[0]).toEqual({ kind: "base", origin: "option", text: "FLAG BASE" });
    expect(out.text.startsWith("FLAG BASE\n\nAvailable tools:\n- Read: ")).toBe(true);
  });

  it("a bad --skill-listing value is a usage error", async () => {
    tree = await tmpTree({ "home/repo": { dir: true } });
    const result = await cli(tree, ["doctor", "--prompt", "--skill-listing", "both"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--skill-listing must be one of messages, system, got "both"');
  });

  it("the old --skill-catalog still works, with a warning; given beside --skill-listing, they must agree", async () => {
    tree = await tmpTree({ "home/repo/.claude/skills/pdf/SKILL.md": SKILL });
    const old = await cli(tree, ["doctor", "--prompt", "--skill-catalog", "system"]);
    const now = await cli(tree, ["doctor", "--prompt", "--skill-listing", "system"]);
    expect(old.code).toBe(0);
    expect(old.stderr).toBe(
      "skillwright: warning: --skill-catalog is deprecated and will be removed: use --skill-listing\n",
    );
    expect(now.stderr).toBe("");
    expect(old.stdout).toContain("<name>\npdf\n</name>");
    expect(old.stdout).toBe(now.stdout);
    const bad = await cli(tree, ["doctor", "--prompt", "--skill-catalog", "both"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--skill-catalog must be one of messages, system, got "both"');
    const clash = await cli(tree, [
      "doctor",
      "--prompt",
      "--skill-listing",
      "system",
      "--skill-catalog",
      "messages",
    ]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("--skill-listing system and --skill-catalog messages disagree");
  });
});
