import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { contextFilePaths, dirsDownTo, loadPromptFiles } from "../../src/prompt/load-prompt-files.js";
import { assembleSessionPrompt } from "../../src/prompt/session-prompt.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("dirsDownTo", () => {
  it("from the top down to the cwd; just the cwd outside it", () => {
    expect(dirsDownTo("/r", "/r/a/b")).toEqual(["/r", "/r/a", "/r/a/b"]);
    expect(dirsDownTo("/r", "/r")).toEqual(["/r"]);
    expect(dirsDownTo("/r", "/elsewhere")).toEqual(["/elsewhere"]);
    expect(dirsDownTo(undefined, "/x/y")).toEqual(["/x/y"]);
  });

  it("context file candidates: the user's first, then root to cwd, AGENTS.md before CLAUDE.md", () => {
    expect(contextFilePaths({ home: "/h", projectDir: "/r", cwd: "/r/a", gitRoot: "/r" })).toEqual([
      "/h/.claude/CLAUDE.md",
      "/h/.skillwright/AGENTS.md",
      "/r/AGENTS.md",
      "/r/CLAUDE.md",
      "/r/a/AGENTS.md",
      "/r/a/CLAUDE.md",
    ]);
  });
});

describe("loadPromptFiles", () => {
  it("project SYSTEM.md and APPEND_SYSTEM.md win over the user's; context files in order, each file once", async () => {
    tree = await tmpTree({
      "home/.skillwright/SYSTEM.md": "USER SYSTEM",
      "home/.skillwright/APPEND_SYSTEM.md": "USER APPEND",
      "home/.skillwright/AGENTS.md": "USER AGENTS",
      "home/.claude/CLAUDE.md": "USER CLAUDE",
      "repo/.skillwright/SYSTEM.md": "PROJECT SYSTEM",
      "repo/AGENTS.md": "ROOT AGENTS",
      "repo/CLAUDE.md": { symlink: "AGENTS.md" },
      "repo/pkg/CLAUDE.md": "PKG CLAUDE",
      "repo/pkg/AGENTS.md": "   \n",
    });
    const t = tree;
    const files = await loadPromptFiles(createNodeFs(), {
      home: t.path("home"),
      projectDir: t.path("repo"),
      cwd: t.path("repo/pkg"),
      gitRoot: t.path("repo"),
    });
    expect(files.system).toEqual({ text: "PROJECT SYSTEM", origin: t.path("repo/.skillwright/SYSTEM.md") });
    expect(files.append).toEqual({
      text: "USER APPEND",
      origin: t.path("home/.skillwright/APPEND_SYSTEM.md"),
    });
    expect(files.contextFiles.map((f) => [f.path, f.text])).toEqual([
      [t.path("home/.claude/CLAUDE.md"), "USER CLAUDE"],
      [t.path("home/.skillwright/AGENTS.md"), "USER AGENTS"],
      [t.path("repo/AGENTS.md"), "ROOT AGENTS"],
      [t.path("repo/pkg/CLAUDE.md"), "PKG CLAUDE"],
    ]);
    expect(files.diagnostics).toEqual([]);
  });

  it("a context path that is a directory is skipped, nothing found is nothing", async () => {
    tree = await tmpTree({ "repo/AGENTS.md/x": "not a file" });
    const files = await loadPromptFiles(createNodeFs(), {
      home: tree.path("home"),
      projectDir: tree.path("repo"),
      cwd: tree.path("repo"),
    });
    expect(files).toEqual({ contextFiles: [], diagnostics: [] });
  });
});

describe("assembleSessionPrompt", () => {
  it("the systemPrompt option wins over SYSTEM.md; APPEND_SYSTEM.md then the option are appended", async () => {
    tree = await tmpTree({
      "repo/.skillwright/SYSTEM.md": "FILE SYSTEM",
      "repo/.skillwright/APPEND_SYSTEM.md": "FILE APPEND",
    });
    const dirs = { home: tree.path("home"), projectDir: tree.path("repo"), cwd: tree.path("repo") };
    const common = { fs: createNodeFs(), ...dirs, platform: "linux", date: "2026-01-02", tools: [] };
    const fromFile = await assembleSessionPrompt({ ...common, appendSystemPrompt: "FLAG" });
    expect(fromFile.parts.map((p) => [p.kind, p.origin, p.text])).toEqual([
      ["base", tree.path("repo/.skillwright/SYSTEM.md"), "FILE SYSTEM"],
      ["append", tree.path("repo/.skillwright/APPEND_SYSTEM.md"), "FILE APPEND"],
      ["append", "option", "FLAG"],
      [
        "environment",
        "built-in",
        `Working directory: ${tree.path("repo")}\nPlatform: linux\nDate: 2026-01-02`,
      ],
    ]);
    const fromOption = await assembleSessionPrompt({ ...common, systemPrompt: "OPTION", filesystem: false });
    expect(fromOption.text).toBe("OPTION\n\nFILE APPEND");
    expect(fromOption.parts[0]?.origin).toBe("option");
  });
});
