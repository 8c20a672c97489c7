import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import * as z from "zod";

/** The folder inside a PGlite data dir that holds one file per process that opened it (or is trying to). */
export const LOCK_FOLDER = ".skillwright-lock";

/** A process as a lock file records it: enough to tell, later, whether that very process still runs. */
export interface LockHolder {
  pid: number;
  /** What it is, for the user: `skillwright serve`, `skillwright keys list`… */
  command: string;
  host: string;
  /** The kernel's boot id (Linux), absent elsewhere: a holder from before a reboot is gone. */
  boot?: string | undefined;
  /** The process's start time in clock ticks since boot (Linux), absent elsewhere: tells a reused pid apart. */
  start?: string | undefined;
}

const lockHolderSchema = z.object({
  pid: z.number().int().positive(),
  command: z.string(),
  host: z.string(),
  boot: z.string().optional(),
  start: z.string().optional(),
});

/** What a look at a pid found: whether a process has it, and when that process started (when known). */
export interface ProcessSeen {
  exists: boolean;
  start?: string | undefined;
}

/**
 * Whether the process a lock file names is gone, so that its file no longer holds the dir. Pure. A holder on
 * another host cannot be checked and holds; one from before a reboot is gone; otherwise it is gone when no
 * process has its pid, or when the process that has it started at another time (the pid was reused).
 */
export function holderGone(
  holder: LockHolder,
  here: { host: string; boot?: string | undefined },
  seen: ProcessSeen,
): boolean {
  if (holder.host !== here.host) return false;
  if (holder.boot !== undefined && here.boot !== undefined && holder.boot !== here.boot) return true;
  if (!seen.exists) return true;
  return holder.start !== undefined && seen.start !== undefined && holder.start !== seen.start;
}

/** The I/O the lock needs about processes: this one, and a look at any pid. */
export interface ProcessProbe {
  /** This process, as its lock file records it (without the command). */
  self(): Promise<Omit<LockHolder, "command">>;
  see(pid: number): Promise<ProcessSeen>;
}

/**
 * Process `pid` as `/proc/PID/stat` shows it (Linux): its start time (field 22) and whether it is a zombie (it
 * has exited, its parent has not reaped it yet); undefined where there is no /proc.
 */
async function linuxStat(
  pid: number | "self",
): Promise<{ start: string | undefined; exited: boolean } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name, which is in parentheses and may hold spaces: state, …, starttime (20th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { start: fields[19], exited: fields[0] === "Z" || fields[0] === "X" };
  } catch {
    return undefined;
  }
}

/** Whether a process has `pid`: signal 0 checks without sending anything (EPERM: it exists, owned by another user). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The probe over this machine: `process.kill(pid, 0)`, and on Linux `/proc` for start times, zombies (a killed
 * holder its parent has not reaped yet is gone) and the boot id.
 */
export function systemProbe(): ProcessProbe {
  return {
    async self() {
      const boot = (await readFile("/proc/sys/kernel/random/boot_id", "utf8").catch(() => "")).trim();
      return {
        pid: process.pid,
        host: hostname(),
        boot: boot === "" ? undefined : boot,
        start: (await linuxStat("self"))?.start,
      };
    },
    async see(pid) {
      if (!pidExists(pid)) return { exists: false };
      const stat = await linuxStat(pid);
      return stat?.exited === true ? { exists: false } : { exists: true, start: stat?.start };
    },
  };
}

/** Thrown when another live process holds the data dir. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.host === hostname() ? "" : ` on host ${holder.host}`;
    super(
      `${dir} is in use by ${holder.command} (pid ${holder.pid}${where}); stop it, or use \`--db postgres://…\` ` +
        "to run several processes",
    );
    this.name = "DataDirInUseError";
  }
}

/** A held data dir; `release` lets the next process in (a process that dies without it is detected as gone). */
export interface DataDirLock {
  release(): Promise<void>;
}

/** Whether `error` says a file is missing. */
function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/** Removes a file that may be gone already. */
async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (!isMissing(error)) throw error;
  });
}

/**
 * A live process other than the one of file `mine` that has a lock file in `folder`, or undefined; the files
 * of processes that are gone are removed on the way (a file being written, `*.tmp`, is removed only when the
 * process writing it is gone).
 */
async function otherHolder(
  folder: string,
  mine: string,
  here: { host: string; boot?: string | undefined },
  probe: ProcessProbe,
): Promise<LockHolder | undefined> {
  for (const name of await readdir(folder)) {
    if (name === mine) continue;
    const path = join(folder, name);
    if (name.endsWith(".tmp")) {
      const pid = Number(name.split("-")[0]);
      if (Number.isInteger(pid) && pid > 0 && !(await probe.see(pid)).exists) await removeFile(path);
      continue;
    }
    if (!name.endsWith(".lock")) continue;
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if (isMissing(error)) continue;
      throw error;
    }
    let parsed: ReturnType<typeof lockHolderSchema.safeParse>;
    try {
      parsed = lockHolderSchema.safeParse(JSON.parse(text));
    } catch {
      continue;
    }
    // A file that is no lock of ours (renamed in whole, never partly written) holds nothing.
    if (!parsed.success) continue;
    const holder = parsed.data;
    if (holderGone(holder, here, await probe.see(holder.pid))) await removeFile(path);
    else return holder;
  }
  return undefined;
}

/**
 * Takes the PGlite data dir `dir` for this process alone (PGlite is single-process: two processes on one dir
 * lose writes and can leave it unreadable), or throws {@link DataDirInUseError} naming the live holder.
 *
 * There is no OS file lock in Node, so each opener writes its own file into `dir/.skillwright-lock/` (pid,
 * start time, boot id, host; written whole by a rename), then lists the folder: it holds the dir when no other
 * file names a live process. Of two openers racing, at least one sees the other (each lists after writing), so
 * both cannot hold it; at worst both refuse. A holder that dies, even by SIGKILL, is seen as gone by the next
 * opener (no process with its pid and start time), whose file then replaces it: no stale lock to remove by hand.
 */
export async function lockDataDir(
  dir: string,
  command: string,
  probe: ProcessProbe = systemProbe(),
): Promise<DataDirLock> {
  const folder = join(dir, LOCK_FOLDER);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const self = await probe.self();
  const base = `${self.pid}-${randomBytes(6).toString("hex")}`;
  const mine = `${base}.lock`;
  const path = join(folder, mine);
  const temp = join(folder, `${base}.tmp`);
  await writeFile(temp, JSON.stringify({ ...self, command } satisfies LockHolder), { mode: 0o600 });
  await rename(temp, path);
  let holder: LockHolder | undefined;
  try {
    holder = await otherHolder(folder, mine, self, probe);
  } catch (error) {
    await removeFile(path);
    throw error;
  }
  if (holder !== undefined) {
    await removeFile(path);
    throw new DataDirInUseError(dir, holder);
  }
  return { release: () => removeFile(path) };
}
