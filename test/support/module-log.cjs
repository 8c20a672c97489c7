// Preloaded with `node --require` into a child: records every module the process loads, ESM through the
// load-recorder hook and CommonJS from require.cache at exit, one file path or URL a line, in the file named
// by MODULE_LOG. Used to show what a command never loads.
const { appendFileSync } = require("node:fs");
const { register } = require("node:module");
const { pathToFileURL } = require("node:url");
const { join } = require("node:path");

const logFile = process.env.MODULE_LOG;
if (logFile) {
  register(pathToFileURL(join(__dirname, "load-recorder.mjs")).href, { data: { logFile } });
  process.on("exit", () => {
    appendFileSync(logFile, `${Object.keys(require.cache).join("\n")}\n`);
  });
}
