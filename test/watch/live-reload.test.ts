import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/engine/engine.js";
import { createNodeWatch, type WatchFn } from "../../src/watch/node-watch.js";
import { type Harness, lastUser, listingBlock, startHarness, textBlocks } from "../support/harness.js";
import { createManualTimers } from "../support/manual-timers.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let h: Harness | undefined;
let tree: TmpTree | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await h?.close();
  await tree?.cleanup();
  engine = undefined;
  h = undefined;
  tree = undefined;
});

/** The real `fs.watch`, recording what it watches and every event it reports. */
function recordingWatch() {
  const inner = createNodeWatch();
  const dirs: string[] = [];
  const events: string[] = [];
  let open = 0;
  const watch: WatchFn = (dir, recursive, listener) => {
    const handle = inner(dir, recursive, (filename) => {
      events.push(filename === undefined ? dir : join(dir, filename));
      listener(filename);
    });
    dirs.push(dir);
    open += 1;
    return {
      close() {
        open -= 1;
        handle.close();
      },
    };
  };
  return { watch, dirs, events, open: () => open };
}

/** Waits until `check` holds (the test's own timeout bounds the wait). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

describe("live reload (watch)", () => {
  it("turns a burst of 20 writes into one reload and one listing delta", async () => {
    const timers = createManualTimers();
    const rec = recordingWatch();
    h = await startHarness({
      files: { "project/.claude/skills/greet/SKILL.md": "---\ndescription: Greets\n---\nG\n" },
      engine: { watch: { timers, watch: rec.watch } },
      turns: [textTurn("a", { lastUserTextIncludes: "one" }), textTurn("b", { lastUserTextIncludes: "two" })],
    });
    const s = h;
    const skillsDir = join(s.cwd, ".claude", "skills");
    await until(() => rec.dirs.includes(skillsDir));
    let reloads = 0;
    s.engine.catalog.onChange(() => reloads++);
    await s.send("one");
    const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
    for (const name of names)
      await put(join(skillsDir, name, "SKILL.md"), `---\ndescription: Skill ${name}\n---\nX\n`);
    await until(() => names.every((n) => rec.events.includes(join(skillsDir, n, "SKILL.md"))));
    expect(timers.pending()).toBe(1);
    timers.fireAll();
    await until(() => reloads === 1);
    await s.send("two");
    const sorted = [...names].sort();
    const blocks = textBlocks(lastUser(s.body(1)).content).filter((t) => t.includes("available for use"));
    expect(blocks).toEqual([listingBlock(...sorted.map((n) => `- ${n}: Skill ${n}`))]);
    expect(reloads).toBe(1);
  });

  it("follows a .claude/skills dir created under a watched project, and then the skills inside it", async () => {
    tree = await tmpTree({ "repo/.git": { dir: true }, "repo/README.md": "", "home/.keep": "" });
    const t = tree;
    const timers = createManualTimers();
    const rec = recordingWatch();
    engine = createEngine({
      cwd: t.path("repo"),
      home: t.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
      watch: { timers, watch: rec.watch },
    });
    const e = engine;
    let reloads = 0;
    e.catalog.onChange(() => reloads++);
    expect((await e.discover()).skills).toEqual([]);
    await until(() => rec.dirs.includes(t.path("repo")));
    // Other files of the project are reported to the watcher but do not count.
    await writeFile(t.path("repo/README.md"), "changed");
    await until(() => rec.events.includes(t.path("repo/README.md")));
    expect(timers.pending()).toBe(0);
    await put(t.path("repo/.claude/skills/fresh/SKILL.md"), "---\ndescription: Fresh\n---\nF\n");
    await until(() => timers.pending() === 1);
    timers.fireAll();
    await until(() => reloads === 1);
    expect((await e.discover()).skills.map((s) => s.name)).toEqual(["fresh"]);
    // The new dir is now watched itself: a skill added inside it is seen too.
    await until(() => rec.dirs.includes(t.path("repo/.claude/skills")));
    await put(t.path("repo/.claude/skills/later/SKILL.md"), "---\ndescription: Later\n---\nL\n");
    await until(() => timers.pending() === 1);
    timers.fireAll();
    await until(() => reloads === 2);
    expect((await e.discover()).skills.map((s) => s.name)).toEqual(["fresh", "later"]);
  });

  it("serves an edited SKILL.md body on the next invocation, with the discovery cache on", async () => {
    const timers = createManualTimers();
    const rec = recordingWatch();
    tree = await tmpTree({ "cache/.keep": "" });
    h = await startHarness({
      files: { "project/.claude/skills/greet/SKILL.md": "---\ndescription: Greets\n---\nBODY-1\n" },
      engine: {
        watch: { timers, watch: rec.watch },
        discoveryCache: { dir: tree.path("cache"), key: "test" },
      },
      turns: [
        toolTurn("Skill", { skill: "greet" }, { match: { lastUserTextIncludes: "one" } }),
        textTurn("ok"),
        toolTurn("Skill", { skill: "greet" }, { match: { lastUserTextIncludes: "two" } }),
        textTurn("ok"),
      ],
    });
    const s = h;
    let reloads = 0;
    s.engine.catalog.onChange(() => reloads++);
    const file = join(s.cwd, ".claude", "skills", "greet", "SKILL.md");
    await until(() => rec.dirs.includes(dirname(dirname(file))));
    await s.send("one");
    expect(JSON.stringify(s.body(1).messages.at(-1))).toContain("BODY-1");
    await writeFile(file, "---\ndescription: Greets\n---\nBODY-2\n");
    await until(() => timers.pending() === 1);
    timers.fireAll();
    await until(() => reloads === 1);
    await s.send("two");
    expect(JSON.stringify(s.body(3).messages.at(-1))).toContain("BODY-2");
  });

  it("close() stops every watch", async () => {
    tree = await tmpTree({
      "repo/.git": { dir: true },
      "repo/.claude/skills/a/SKILL.md": "x",
      "home/.keep": "",
    });
    const rec = recordingWatch();
    engine = createEngine({
      cwd: tree.path("repo"),
      home: tree.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
      watch: { watch: rec.watch },
    });
    await engine.discover();
    await until(() => rec.open() > 0);
    await engine.close();
    expect(rec.open()).toBe(0);
  });

  it("a process that closes its watching engine exits by itself (no open handles)", async () => {
    tree = await tmpTree({
      "repo/.git": { dir: true },
      "repo/.claude/skills/a/SKILL.md": "x",
      "home/.keep": "",
    });
    const index = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
    // It first waits for a reload the watcher made (writing until one comes), so the watches are really open.
    const script = `
      const { writeFile, mkdir } = await import("node:fs/promises");
      const { createEngine } = await import(${JSON.stringify(index)});
      const engine = createEngine({ cwd: ${JSON.stringify(tree.path("repo"))}, home: ${JSON.stringify(tree.path("home"))}, env: { SKILLWRIGHT_MANAGED_DIR: ${JSON.stringify(tree.path("managed"))} }, watch: { delayMs: 20 } });
      let reloaded = false;
      engine.catalog.onChange(() => { reloaded = true; });
      await engine.discover();
      const dir = ${JSON.stringify(tree.path("repo/.claude/skills/b"))};
      await mkdir(dir, { recursive: true });
      for (let i = 0; !reloaded; i++) {
        await writeFile(dir + "/SKILL.md", "---\\ndescription: B " + i + "\\n---\\n");
        for (let wait = 0; wait < 10 && !reloaded; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      console.log((await engine.discover()).skills.map((s) => s.name).join(","));
      await engine.close();
    `;
    const result = await execa(process.execPath, ["--input-type=module", "-e", script], {
      reject: false,
      timeout: 20_000,
    });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("a,b");
  });
});
