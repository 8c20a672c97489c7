import { accessSync, constants } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import { createOsSessionSandbox } from "../../src/sandbox/os-session-sandbox.js";
import type { SandboxNetwork } from "../../src/sandbox/sandbox-network.js";
import { connectTarget } from "../../src/sandbox/session-proxy.js";
import { type LocalHttp, startLocalHttp } from "../support/local-http.js";
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

describe("connectTarget reads a CONNECT request's authority", () => {
  it.each([
    ["example.com:443", { host: "example.com", port: 443 }],
    ["[::1]:8443", { host: "::1", port: 8443 }],
    ["user@example.com:443", undefined],
    ["not a host:1", undefined],
  ])("%s", (authority, want) => {
    const got = connectTarget(authority);
    expect(got === undefined ? undefined : { host: got.host, port: got.port }).toEqual(want);
  });
});

describe.skipIf(!HAS_BWRAP)("the OS tier's network, through the session's proxy", () => {
  let local: LocalHttp;
  let hits: string[];
  let port: number;
  beforeAll(async () => {
    local = await startLocalHttp();
    ({ hits, port } = local);
  });
  afterAll(async () => {
    await local?.close();
  });

  /** A sandbox whose commands have `network`; `localhost` names the test's server (never the real resolver). */
  const withNetwork = (network: SandboxNetwork) =>
    createOsSessionSandbox({
      fs: createMemoryFs({ "/workspace/.keep": "" }),
      mounts: [{ path: "/workspace", writable: true }],
      scratchDir: tmpdir(),
      hostShell: createNodeShell(),
      network,
      resolve: async (host) => {
        if (host === "local.test") return [{ address: "127.0.0.1", family: 4 }];
        throw new Error(`no such host ${host}`);
      },
    });
  const curl = (host: string, path: string) => `curl -sS http://${host}:${port}/${path}; echo " CURL-DONE"`;

  it("reaches an allowed host (a loopback one only when the operator allowed it by name), by curl and python", async () => {
    const sandbox = withNetwork({
      mode: "limited",
      allowedHosts: ["127.0.0.1", "local.test"],
      allowPrivateHosts: ["127.0.0.1"],
    });
    try {
      const run = (command: string) => sandbox.shell.run(command, { cwd: "/workspace" });
      expect((await run(curl("127.0.0.1", "curl"))).stdout).toContain("LOCAL-ANSWER CURL-DONE");
      const py = await run(
        `python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:${port}/py").read().decode())'`,
      );
      expect(py.stdout).toContain("LOCAL-ANSWER");
      // local.test resolves to 127.0.0.1, a loopback address the operator did not allow by that name.
      const refused = await run(curl("local.test", "private"));
      expect(refused.stdout).toContain("loopback, private, link-local or metadata address");
      expect(refused.stdout).not.toContain("LOCAL-ANSWER");
      // A tunnel is refused the same way; its reason reaches curl as the CONNECT's status.
      const tunnel = await run(`curl -sS -p http://local.test:${port}/tunnel; echo " CURL-DONE"`);
      expect(tunnel.stdout + tunnel.stderr).toContain("403");
      expect(sandbox.description).toContain("only 127.0.0.1, local.test");
      expect(hits).toEqual(["/curl", "/py"]);
    } finally {
      await sandbox.close();
    }
  });

  it("refuses a host a limited network leaves out, and a client that ignores the proxy reaches nothing", async () => {
    hits.length = 0;
    const sandbox = withNetwork({
      mode: "limited",
      allowedHosts: ["api.example.com"],
      allowPrivateHosts: ["127.0.0.1"],
    });
    try {
      const run = (command: string) => sandbox.shell.run(command, { cwd: "/workspace" });
      expect((await run(curl("127.0.0.1", "left-out"))).stdout).toContain(
        "127.0.0.1 is not among this sandbox's allowed hosts",
      );
      const direct = await run(`curl -sS --noproxy '*' http://127.0.0.1:${port}/direct; echo " CURL-DONE"`);
      expect(direct.stdout).toContain("CURL-DONE");
      expect(direct.stdout).not.toContain("LOCAL-ANSWER");
      expect(hits).toEqual([]);
    } finally {
      await sandbox.close();
    }
    expect((await sandbox.shell.run("true", { cwd: "/workspace" })).startError).toContain("closed");
  });

  it("gives a session with no network no proxy at all", async () => {
    const sandbox = withNetwork({ mode: "none" });
    const ran = await sandbox.shell.run('echo "[$HTTP_PROXY]"; ls /run/skillwright 2>&1', {
      cwd: "/workspace",
    });
    expect(ran.stdout).toContain("[]");
    expect(ran.stdout).toContain("No such file or directory");
    expect(sandbox.description).toContain("There is no network");
  });
});
