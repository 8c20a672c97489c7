import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import { createAdaptorServer } from "@hono/node-server";
import { execa, type ResultPromise } from "execa";
import { assertBuilt, BIN } from "../cli/run-cli.js";

/** A running `node dist/bin/main.js serve --port 0` and where it listens. */
export interface ServeProcess {
  url: string;
  process: ResultPromise;
  /** Everything the server wrote to stdout so far. */
  stdout(): string;
  /** Everything the server wrote to stderr so far (progress, the access log). */
  stderr(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** The first child of process `pid` (Linux's /proc), or undefined when it has none. */
function firstChild(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ");
    const first = Number(children[0]);
    return Number.isInteger(first) && first > 0 ? first : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the shipped bin's `serve` on a free port (in `cwd`, default this process's) and waits for its
 * `listening on URL` line. `wrap` runs it under another program (`["strace", "-f", …]`): node is then that
 * program's child, and `stop` sends SIGTERM to node itself.
 */
export async function startServe(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
  wrap: readonly string[] = [],
): Promise<ServeProcess> {
  assertBuilt();
  const [program = process.execPath, ...before] =
    wrap.length === 0 ? [process.execPath] : [...wrap, process.execPath];
  const child = execa(program, [...before, BIN, "serve", "--port", "0", ...args], {
    ...(cwd === undefined ? {} : { cwd }),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    extendEnv: false,
    reject: false,
    stdin: "ignore",
  });
  let out = "";
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.then((result) =>
      reject(new Error(`serve exited (${result.exitCode}) before listening:\n${out}\n${err}`)),
    );
  });
  return {
    url,
    process: child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      const node = wrap.length === 0 ? undefined : firstChild(child.pid);
      if (node === undefined) child.kill("SIGTERM");
      else process.kill(node, "SIGTERM");
      await child;
    },
  };
}

/** The official SDK client, unchanged, pointed at a served URL (no retries: a 5xx must show at once). */
export function sdkClient(url: string, apiKey: string): Anthropic {
  return new Anthropic({ apiKey, baseURL: url, maxRetries: 0 });
}

/**
 * Serves an in-process app (e.g. `createServeApp` with a stand-in runner) on a free port. `close` does not wait
 * for streams a test left open.
 */
export async function listenInProcess(app: {
  fetch: (request: Request) => Response | Promise<Response>;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("no address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
