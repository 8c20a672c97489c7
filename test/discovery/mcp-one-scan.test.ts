import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/engine/engine.js";
import { SERVER_SCRIPT } from "../mcp/support.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { skillMd } from "./engine-for.js";
import { spyFs } from "./spy-fs.js";

// A project with an MCP server only one of its skills needs: the engine learns which servers are held from the
// skill folders' listing the catalog already made, so discovery reads each skill folder once (it read them
// twice: once for the catalog, once more for the held servers).

let tree: TmpTree | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await tree?.cleanup();
  engine = tree = undefined;
});

describe("discovery with an MCP server only skills need", () => {
  it("scans the skill folders once and still holds the server the skill needs", async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.mcp.json": JSON.stringify({
        mcpServers: { docs: { command: process.execPath, args: [SERVER_SCRIPT] } },
      }),
      "home/repo/.claude/settings.local.json": JSON.stringify({ enabledMcpjsonServers: ["docs"] }),
      "home/repo/.claude/skills/docs-skill/SKILL.md": skillMd(
        "Answers from the docs server",
        "metadata:\n  requires:\n    mcp: [docs]\n",
      ),
      "home/repo/.claude/skills/plain/SKILL.md": skillMd("a plain skill"),
    });
    const spy = spyFs();
    engine = createEngine({
      cwd: tree.path("home/repo"),
      home: tree.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
      bundledExtractRoot: tree.path("extract"),
      fs: spy.fs,
    });
    const found = await engine.discover();
    expect(found.skills.map((s) => s.name).sort()).toEqual(["docs-skill", "plain"]);
    const skillsDir = tree.path("home/repo/.claude/skills");
    expect(spy.calls.readdir.filter((p) => p === skillsDir)).toHaveLength(1);
    expect(await (await engine.extensions()).mcp?.heldServers()).toEqual(["docs"]);
  }, 120_000);
});
