import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DataDirInUseError,
  holderGone,
  LOCK_FOLDER,
  type LockHolder,
  lockDataDir,
  systemProbe,
} from "../../src/serve/store/data-dir-lock.js";
import { openPgliteDriver } from "../../src/serve/store/pglite-driver.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// One process per PGlite data dir: the lock every opener takes, over the real file system and real processes.

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({ ".keep": "" });
});
afterAll(async () => {
  await tree?.cleanup();
});

const here = { host: "h", boot: "b1" };
const holder: LockHolder = { pid: 10, command: "skillwright serve", host: "h", boot: "b1", start: "500" };

describe("holderGone", () => {
  it("keeps a live holder, drops a dead, rebooted or reused one, and cannot judge another host's", () => {
    expect(holderGone(holder, here, { exists: true, start: "500" })).toBe(false);
    expect(holderGone(holder, here, { exists: false })).toBe(true);
    expect(holderGone(holder, { host: "h", boot: "b2" }, { exists: true, start: "500" })).toBe(true);
    expect(holderGone(holder, here, { exists: true, start: "501" })).toBe(true);
    expect(holderGone(holder, { host: "other" }, { exists: false })).toBe(false);
    // Without start times (no /proc), a process with the pid holds.
    expect(holderGone({ ...holder, start: undefined }, here, { exists: true })).toBe(false);
  });
});

/** Writes a lock file as another process would have left it. */
async function leaveLockFile(dir: string, name: string, content: LockHolder): Promise<void> {
  await lockDataDir(dir, "setup").then((lock) => lock.release());
  await writeFile(join(dir, LOCK_FOLDER, name), JSON.stringify(content));
}

describe("lockDataDir", () => {
  it("refuses a second opener naming the holder, and lets the next one in after release", async () => {
    const dir = tree.path("plain");
    const first = await lockDataDir(dir, "skillwright serve");
    const refused = lockDataDir(dir, "skillwright keys list");
    await expect(refused).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(refused).rejects.toThrow(
      `${dir} is in use by skillwright serve (pid ${process.pid}); stop it, or use \`--db postgres://…\` to run several processes`,
    );
    await first.release();
    const next = await lockDataDir(dir, "skillwright keys list");
    await next.release();
    expect(await readdir(join(dir, LOCK_FOLDER))).toEqual([]);
  });

  it("replaces the file of a holder that died, and of a pid now used by another process", async () => {
    const dir = tree.path("stale");
    const self = await systemProbe().self();
    const child = execa(process.execPath, ["-e", ""]);
    const pid = child.pid;
    await child;
    if (pid === undefined) throw new Error("the child has no pid");
    await leaveLockFile(dir, `${pid}-dead.lock`, { ...self, pid, command: "skillwright serve" });
    if (self.start !== undefined) {
      // This very pid, but a process that started at another time: the holder that had it is gone.
      await leaveLockFile(dir, `${process.pid}-old.lock`, {
        ...self,
        start: "1",
        command: "skillwright serve",
      });
    }
    const lock = await lockDataDir(dir, "skillwright serve");
    expect(
      (await readdir(join(dir, LOCK_FOLDER))).filter((name) => !name.startsWith(`${process.pid}-`)),
    ).toEqual([]);
    expect(existsSync(join(dir, LOCK_FOLDER, `${process.pid}-old.lock`))).toBe(false);
    await lock.release();
  });

  it.runIf(existsSync("/proc/self/stat"))(
    "replaces the file of a holder killed but not yet reaped by its parent",
    async () => {
      const dir = tree.path("zombie");
      // `sleep 200` becomes the parent of the background `sleep 100` and never reaps it: killed, it stays a zombie.
      const parent = execa("sh", ["-c", "sleep 100 & echo $!; exec sleep 200"]);
      try {
        const pid = await new Promise<number>((resolve) =>
          parent.stdout?.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
        );
        const start = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]?.split(" ")[19];
        // Killed while the shell has not yet become `sleep 200`, the child would be reaped by the shell: wait
        // for the exec (a busy machine may delay it), then the killed child stays a zombie.
        await expect
          .poll(async () => (await readFile(`/proc/${parent.pid}/comm`, "utf8")).trim())
          .toBe("sleep");
        process.kill(pid, "SIGKILL");
        await expect
          .poll(async () => (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]?.[0])
          .toBe("Z");
        const self = await systemProbe().self();
        await leaveLockFile(dir, `${pid}-zombie.lock`, { ...self, pid, start, command: "skillwright serve" });
        const lock = await lockDataDir(dir, "skillwright serve");
        expect(existsSync(join(dir, LOCK_FOLDER, `${pid}-zombie.lock`))).toBe(false);
        await lock.release();
      } finally {
        parent.kill("SIGKILL");
        await parent.catch(() => {});
      }
    },
  );

  it("keeps a holder on another host, which it cannot check", async () => {
    const dir = tree.path("remote");
    await leaveLockFile(dir, "77-remote.lock", { ...holder, pid: 77, host: "elsewhere.example" });
    await expect(lockDataDir(dir, "skillwright serve")).rejects.toThrow(
      "is in use by skillwright serve (pid 77 on host elsewhere.example)",
    );
  });

  it("of many openers racing, at most one holds the dir", async () => {
    const dir = tree.path("race");
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => lockDataDir(dir, `opener ${i}`)),
    );
    const held = results.filter((result) => result.status === "fulfilled");
    expect(held.length).toBeLessThanOrEqual(1);
    for (const result of results) {
      if (result.status === "rejected") expect(result.reason).toBeInstanceOf(DataDirInUseError);
    }
    for (const result of held) await result.value.release();
    const after = await lockDataDir(dir, "after the race");
    await after.release();
  });
});

describe("the PGlite driver", () => {
  it("holds its dir until close: a second driver on it is refused, a later one opens it", async () => {
    const dir = await freshPgliteDir(tree.path("pglite"));
    const first = await openPgliteDriver(dir, "skillwright serve");
    await first.query("CREATE TABLE kept (v text)");
    await first.query("INSERT INTO kept VALUES ('one')");
    await expect(openPgliteDriver(dir, "skillwright keys list")).rejects.toThrow(
      `${dir} is in use by skillwright serve (pid ${process.pid})`,
    );
    await first.close();
    const again = await openPgliteDriver(dir);
    expect(await again.query("SELECT v FROM kept")).toEqual([{ v: "one" }]);
    await again.close();
  }, 120_000);
});
