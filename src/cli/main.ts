#!/usr/bin/env node
import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import { runCli } from "./run.js";

/** The only module that reads process.argv, process.env and process.cwd(), and sets the exit code. */
const bundledDir = fileURLToPath(new URL("../../bundled-skills", import.meta.url));
runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  home: process.env.SKILLWRIGHT_HOME ?? homedir(),
  bundledDir,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `skillwright: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
