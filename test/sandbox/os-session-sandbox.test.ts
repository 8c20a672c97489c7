import { accessSync, constants } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import { createOsSessionSandbox } from "../../src/sandbox/os-session-sandbox.js";
import { sandboxContract } from "../support/sandbox-contract.js";

const PATH = process.env.PATH ?? "";
const HAS_BWRAP =
  process.platform === "linux" &&
  PATH.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, "bwrap"), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
if (!HAS_BWRAP) console.log("os-session-sandbox: skipped: bubblewrap missing (apt-get install bubblewrap)");

/** A session's file system: a workspace, a read-only skill with a script, a memory store. */
function session() {
  const fs = createMemoryFs({
    "/workspace/.keep": "",
    "/mnt/skills/yaml-dump/dump.py": 'import yaml\nprint(yaml.safe_dump({"made": "here"}), end="")\n',
    "/mnt/memory/notes/a.md": "note\n",
  });
  const sandbox = createOsSessionSandbox({
    fs,
    mounts: [
      { path: "/workspace", writable: true },
      { path: "/mnt/skills", writable: false },
      { path: "/mnt/memory/notes", writable: true },
    ],
    scratchDir: tmpdir(),
    hostShell: createNodeShell(),
    maxOutputBytes: 64 * 1024,
  });
  return { fs, sandbox };
}

describe.skipIf(!HAS_BWRAP)("the OS tier over a session's own files", () => {
  sandboxContract("os, over a session's in-memory files", async () => ({
    sandbox: session().sandbox,
    cwd: "/workspace",
    maxOutputBytes: 64 * 1024,
  }));

  it("runs the host's python3 with its installed packages on the session's files, and writes back", async () => {
    const { fs, sandbox } = session();
    const ran = await sandbox.shell.run("python3 /mnt/skills/yaml-dump/dump.py > out/result.yaml", {
      cwd: "/workspace",
    });
    expect(ran.stderr).toContain("No such file or directory");
    const again = await sandbox.shell.run(
      "mkdir -p out && python3 /mnt/skills/yaml-dump/dump.py > out/result.yaml && echo more >> /mnt/memory/notes/a.md && rm .keep",
      { cwd: "/workspace" },
    );
    expect(again).toMatchObject({ exitCode: 0, stderr: "" });
    expect(await fs.readFile("/workspace/out/result.yaml")).toBe("made: here\n");
    expect(await fs.readFile("/mnt/memory/notes/a.md")).toBe("note\nmore\n");
    await expect(fs.readFile("/workspace/.keep")).rejects.toThrow();
  });

  it("sees none of the host's home folders, /etc secrets or network, and cannot write a read-only mount", async () => {
    const { fs, sandbox } = session();
    const run = (command: string) => sandbox.shell.run(command, { cwd: "/workspace" });
    expect((await run(`ls ${homedir()}`)).exitCode).not.toBe(0);
    expect((await run("ls /home")).exitCode).not.toBe(0);
    expect((await run("cat /etc/passwd")).exitCode).not.toBe(0);
    expect((await run("echo x > /mnt/skills/yaml-dump/dump.py")).stderr).toContain("Read-only file system");
    expect(await fs.readFile("/mnt/skills/yaml-dump/dump.py")).toContain("import yaml");
    expect(
      (await run("python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 80), 5)'")).exitCode,
    ).not.toBe(0);
  });
});
