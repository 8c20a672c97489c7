#!/usr/bin/env node
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isatty } from "node:tty";
import { fileURLToPath } from "node:url";
import { runCli } from "./run.js";

/** The only module that reads process.argv, process.env and process.cwd(), and sets the exit code. */
const packageRoot = new URL("../../", import.meta.url);
/** `SKILLWRIGHT_BUNDLED_DIR` replaces the package's own bundled-skills/ (tests point it at a temp dir). */
const bundledDir =
  process.env.SKILLWRIGHT_BUNDLED_DIR ?? fileURLToPath(new URL("bundled-skills", packageRoot));

function packageVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL("package.json", packageRoot), "utf8"));
    return typeof pkg === "object" && pkg !== null && "version" in pkg ? String(pkg.version) : "unknown";
  } catch {
    return "unknown";
  }
}

/** This build's identity: the bin file's size and modification time (every build rewrites it). */
function buildId(): string | undefined {
  try {
    const stat = statSync(new URL(import.meta.url));
    return `${stat.size}-${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Lines of stdin (`--input-format stream-json`). node:readline loads only then: most runs never read stdin
 * line by line, and each built-in module a command loads is compiled at start-up.
 */
async function* stdinLines(): AsyncIterable<string> {
  const { createInterface } = await import("node:readline");
  yield* createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
}

/** A yes/no question on the terminal (stdin, asked on stderr); anything but y or yes is no. */
async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** Resolves at SIGINT/SIGTERM; installs its handlers only when a long-running command asks. */
const waitForStop = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });

runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  writeStdout: (text) =>
    new Promise<void>((resolve) => {
      if (process.stdout.write(text)) {
        resolve();
        return;
      }
      // A closed pipe never drains: give up waiting then too (the write error is reported by the stream).
      const done = () => {
        process.stdout.off("drain", done).off("close", done).off("error", done);
        resolve();
      };
      process.stdout.once("drain", done).once("close", done).once("error", done);
    }),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
  home: process.env.SKILLWRIGHT_HOME ?? homedir(),
  bundledDir,
  webDir: fileURLToPath(new URL("src/serve/web", packageRoot)),
  version: packageVersion(),
  buildId: buildId(),
  readStdin,
  stdinLines,
  waitForStop,
  ...(isatty(0) ? { confirm } : {}),
  // process.stdin is built on first read (for a pipe, a socket): ask the file descriptors instead.
  ...(isatty(0) && isatty(1)
    ? {
        interactive: async (engine, io, args) => {
          const { interactiveCommand } = await import("./interactive.js");
          return interactiveCommand(engine, io, args, { input: process.stdin, output: process.stdout });
        },
      }
    : {}),
}).then(
  (code) => {
    process.exitCode = code;
    // Open handles (keep-alive sockets, a finished server) must not keep a finished command alive, but a piped
    // stdout may still hold queued output: exit once both streams have flushed everything written so far.
    process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
  },
  (error: unknown) => {
    process.stderr.write(
      `skillwright: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
