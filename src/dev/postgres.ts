import { execFileSync } from "node:child_process";
import { chownSync, existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";

/** A real, throwaway PostgreSQL server in a temp dir (for the tests and the serve bench). */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  /** A fresh database on the server, for a test that must not see another's rows. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server (fast shutdown: open connections are cut), runs `whileDown` if given, then starts it
   * again on the same port and data dir and waits until it accepts connections.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  /** Stops the server and removes its data dir. */
  stop(): Promise<void>;
}

/**
 * Debian's server binaries (`/usr/lib/postgresql/N/bin`), newest first. When there are none and we are root
 * (CI), installs Debian's `postgresql` package with apt-get; otherwise fails saying how to install it.
 */
function binDir(): string {
  const find = () =>
    existsSync("/usr/lib/postgresql")
      ? readdirSync("/usr/lib/postgresql")
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
          .find((dir) => existsSync(join(dir, "postgres")))
      : undefined;
  let dir = find();
  if (dir === undefined && process.getuid?.() === 0) {
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "postgresql"], { stdio: "ignore" });
    dir = find();
  }
  if (dir === undefined) {
    throw new Error("no PostgreSQL server binaries: install them with `apt-get install postgresql`");
  }
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts PostgreSQL in a new temp dir (initdb, then the server on a free port, trust auth on 127.0.0.1).
 * initdb refuses to run as root: as root, the dir is given to the `postgres` user and both run as it.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const root = await mkdtemp(join(tmpdir(), "skillwright-pg-"));
  const asRoot = process.getuid?.() === 0;
  const uid = asRoot ? Number(execFileSync("id", ["-u", "postgres"]).toString().trim()) : undefined;
  const gid = asRoot ? Number(execFileSync("id", ["-g", "postgres"]).toString().trim()) : undefined;
  if (uid !== undefined && gid !== undefined) chownSync(root, uid, gid);
  const run = (file: string, args: string[]) =>
    asRoot ? execa("runuser", ["-u", "postgres", "--", file, ...args]) : execa(file, args);
  const data = join(root, "data");
  await run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const launch = (): ResultPromise => {
    const child = run(join(bin, "postgres"), [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      root,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
    ]);
    child.catch(() => {});
    return child;
  };
  let server = launch();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const pg = (await import("pg")).default;
  const ready = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => {});
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  // `runuser` does not pass signals on: pg_ctl stops the server itself.
  const halt = async () => {
    await run(join(bin, "pg_ctl"), ["stop", "-D", data, "-m", "fast", "-w"]).catch(() => {
      server.kill("SIGKILL");
    });
    await server.catch(() => {});
  };
  await ready();
  return {
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE DATABASE "${name}"`);
      await client.end();
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart(whileDown) {
      await halt();
      await whileDown?.();
      server = launch();
      await ready();
    },
    async stop() {
      await halt();
      await rm(root, { recursive: true, force: true });
    },
  };
}
