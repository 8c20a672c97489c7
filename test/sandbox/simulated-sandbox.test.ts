import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { missingPackageLine } from "../../src/io/optional-package.js";
import {
  createSimulatedSandbox,
  findJustBash,
  type SimulatedSandbox,
} from "../../src/sandbox/simulated-sandbox.js";
import { readOnlyAt } from "../support/read-only-fs.js";
import { sandboxContract } from "../support/sandbox-contract.js";

const maxOutputBytes = 64 * 1024;

sandboxContract("simulated, over an in-memory file system", async () => ({
  sandbox: createSimulatedSandbox({
    fs: createMemoryFs({ "/workspace/.keep": "" }),
    limits: { maxOutputBytes },
  }),
  cwd: "/workspace",
  maxOutputBytes,
}));

sandboxContract("simulated, with a read-only mount", async () => ({
  sandbox: createSimulatedSandbox({
    fs: readOnlyAt(createMemoryFs({ "/workspace/.keep": "", "/mnt/skills/s/SKILL.md": "x" }), [
      "/mnt/skills",
    ]),
    limits: { maxOutputBytes },
  }),
  cwd: "/workspace",
  maxOutputBytes,
}));

describe("just-bash, an optional dependency", () => {
  // Node's own error for a package that is not installed, as `npm install --omit=optional` leaves just-bash out.
  const notInstalled = (name: string): string => {
    const error = Object.assign(new Error(`Cannot find package '${name}' imported from ${import.meta.url}`), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    throw error;
  };

  test("is found where it is installed", () => {
    const found = findJustBash();
    expect("url" in found && found.url).toMatch(/^file:.*just-bash/);
  });

  test("not installed: the line saying what to install, and no sandbox (nothing falls back to the host)", () => {
    expect(findJustBash(notInstalled)).toEqual({ missing: missingPackageLine("just-bash") });
    expect(missingPackageLine("just-bash")).toContain("npm install just-bash");
    expect(() => createSimulatedSandbox({ fs: createMemoryFs(), resolvePackage: notInstalled })).toThrow(
      missingPackageLine("just-bash"),
    );
  });

  test("any other failure to resolve it passes through", () => {
    const broken = new Error("the resolver failed");
    expect(() =>
      findJustBash(() => {
        throw broken;
      }),
    ).toThrow(broken);
  });
});

const CALC = "import sys\nprint(sum(int(a) for a in sys.argv[1:]))\n";

describe("the simulated sandbox", () => {
  let hostDir = "";
  const sandboxes: SimulatedSandbox[] = [];
  const make = (network?: Parameters<typeof createSimulatedSandbox>[0]["network"]) => {
    const fs = readOnlyAt(
      createMemoryFs({ "/workspace/.keep": "", "/mnt/skills/calc/scripts/calc.py": CALC }),
      ["/mnt/skills"],
    );
    const sandbox = createSimulatedSandbox({ fs, network });
    sandboxes.push(sandbox);
    return { fs, sandbox };
  };
  beforeAll(async () => {
    hostDir = await mkdtemp(join(tmpdir(), "simulated-host-"));
  });
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    await rm(hostDir, { recursive: true, force: true });
  });

  test("python3 runs a script from a read-only mount and writes to a writable one", async () => {
    const { fs, sandbox } = make();
    const result = await sandbox.shell.run(
      "python3 /mnt/skills/calc/scripts/calc.py 2 3 37 > /workspace/sum.txt && cat sum.txt",
      { cwd: "/workspace" },
    );
    expect(result).toMatchObject({ stdout: "42\n", exitCode: 0 });
    expect(await fs.readFile("/workspace/sum.txt")).toBe("42\n");
  });

  test("the read-only mount refuses the shell's and python's writes, and the script goes on", async () => {
    const { fs, sandbox } = make();
    const shell = await sandbox.shell.run("touch /mnt/skills/calc/new; echo after $?", { cwd: "/workspace" });
    expect(shell.stdout).toBe("after 1\n");
    expect(shell.stderr).toMatch(/read-only file system/i);
    const redirect = await sandbox.shell.run("echo x > /mnt/skills/calc/new", { cwd: "/workspace" });
    expect(redirect).toMatchObject({ exitCode: 1 });
    expect(redirect.stderr).toMatch(/^bash: \/mnt\/skills\/calc\/new: Read-only file system/);
    const python = await sandbox.shell.run(`python3 -c 'open("/mnt/skills/calc/new", "w").write("x")'`, {
      cwd: "/workspace",
    });
    expect(python.exitCode).not.toBe(0);
    expect((await fs.readdir("/mnt/skills/calc")).map((e) => e.name)).toEqual(["scripts"]);
  });

  test("/dev/null takes output and gives nothing, and the script goes on", async () => {
    const { fs, sandbox } = make();
    const result = await sandbox.shell.run(
      "echo hidden > /dev/null; echo more >> /dev/null 2>/dev/null; cat /dev/null; test -c /dev/null && echo after",
      { cwd: "/workspace" },
    );
    expect(result).toMatchObject({ stdout: "after\n", exitCode: 0 });
    expect(await fs.readdir("/").then((entries) => entries.map((e) => e.name))).not.toContain("dev");
  });

  test("a runaway loop ends at the deadline with a timeout result, not at a count of iterations", {
    timeout: 120_000,
  }, async () => {
    const { sandbox } = make();
    const result = await sandbox.shell.run("while :; do :; done", { cwd: "/workspace", timeoutMs: 3_000 });
    expect(result).toMatchObject({ timedOut: true, exitCode: undefined });
    // Past just-bash's own default of 100,000 iterations: a long finite loop runs to its end.
    const after = await sandbox.shell.run("for i in $(seq 1 100001); do :; done; echo $i", {
      cwd: "/workspace",
    });
    expect(after).toMatchObject({ stdout: "100001\n", exitCode: 0 });
  });

  test("touch, a redirect and python's open() aimed at a host directory change nothing on the host", async () => {
    const { sandbox } = make();
    await sandbox.shell.run(`touch ${hostDir}/touched`, { cwd: "/workspace" });
    await sandbox.shell.run(`echo escaped > ${hostDir}/redirected`, { cwd: "/workspace" });
    await sandbox.shell.run(`python3 -c 'open("${hostDir}/opened", "w").write("escaped")'`, {
      cwd: "/workspace",
    });
    expect(await readdir(hostDir)).toEqual([]);
  });

  test("hostname and the environment are the sandbox's, not the host's", async () => {
    const { sandbox } = make();
    const result = await sandbox.shell.run("hostname; env", { cwd: "/workspace" });
    const [name] = result.stdout.split("\n");
    expect(name).not.toBe(hostname());
    expect(name).toBe("sandbox");
    for (const key of Object.keys(process.env).filter(
      (k) =>
        !["HOME", "PATH", "PWD", "USER", "SHELL", "LANG", "TERM", "LOGNAME", "HOSTNAME", "OLDPWD"].includes(
          k,
        ),
    )) {
      expect(result.stdout).not.toContain(`${key}=`);
    }
  });

  describe("a local HTTP server the test starts", () => {
    let server: Server;
    let url = "";
    let hits = 0;
    beforeAll(async () => {
      server = createServer((_request, response) => {
        hits++;
        response.end("reached\n");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    test("is not reached without network, nor with an unrestricted one, nor by python", {
      timeout: 120_000,
    }, async () => {
      for (const network of [undefined, { mode: "unrestricted" } as const]) {
        const { sandbox } = make(network);
        const result = await sandbox.shell.run(
          `curl -s ${url}; python3 -c 'import urllib.request; urllib.request.urlopen("${url}")'`,
          { cwd: "/workspace" },
        );
        expect(result.stdout).not.toContain("reached");
      }
      expect(hits).toBe(0);
    });

    test("is reached only when the operator allows its address by name", async () => {
      const { sandbox } = make({ mode: "unrestricted", allowPrivateHosts: ["127.0.0.1"] });
      const result = await sandbox.shell.run(`curl -s ${url}`, { cwd: "/workspace" });
      expect(result.stdout).toBe("reached\n");
      expect(hits).toBe(1);
    });
  });

  test("a busy loop in one sandbox does not stop another from answering", async () => {
    const events: string[] = [];
    const busy = make().sandbox;
    const other = make().sandbox;
    const stop = new AbortController();
    const loop = busy.shell
      .run("while :; do :; done", { cwd: "/workspace", signal: stop.signal })
      .then((result) => {
        events.push("loop ended");
        return result;
      });
    const answer = await other.shell.run("echo answered", { cwd: "/workspace" });
    events.push(`other: ${answer.stdout.trim()}`);
    stop.abort();
    expect((await loop).aborted).toBe(true);
    expect(events).toEqual(["other: answered", "loop ended"]);
  });
});
