// Loaded into a process with `NODE_OPTIONS=--import <this file>`: appends one JSON line per child process the
// process starts (every spawn, exec and fork goes through ChildProcess.prototype.spawn) to the file named by
// SKILLWRIGHT_SPAWN_LOG, synchronously, before the child starts. Used by test/serve/hostile-skills.test.ts.
import { ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";

const log = process.env.SKILLWRIGHT_SPAWN_LOG;
if (log !== undefined && log !== "") {
  const spawn = ChildProcess.prototype.spawn;
  ChildProcess.prototype.spawn = function recordedSpawn(options) {
    appendFileSync(log, `${JSON.stringify({ file: options?.file, args: options?.args })}\n`);
    return spawn.call(this, options);
  };
}
