// A module-customization hook (`module.register`) that appends the URL of every module Node loads to a file,
// one a line, synchronously, before the module is evaluated: once `await import(x)` settles, the file lists
// everything importing `x` loaded. Used by test/entry-import.test.ts.
import { appendFileSync } from "node:fs";

let logFile = "";

/** Receives the log file's path from `register(…, { data: { logFile } })`. */
export function initialize(data) {
  logFile = data.logFile;
}

/** Records the URL, then loads the module as Node would. */
export async function load(url, context, nextLoad) {
  appendFileSync(logFile, `${url}\n`);
  return nextLoad(url, context);
}
