import { accessSync, constants } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import {
  capOutput,
  createOsSandbox,
  isExcludedCommand,
  loadSandboxRuntime,
  missingDependencyLine,
  type OsSandboxPolicy,
  withoutNewSession,
} from "../../src/sandbox/os-sandbox.js";
import { sandboxContract } from "../support/sandbox-contract.js";

const PATH = process.env.PATH ?? "";
const onPath = (program: string) =>
  PATH.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
const MISSING = ["bwrap", "socat", "rg"].filter((p) => !onPath(p));
const HAS_RUNTIME = MISSING.length === 0 && process.platform === "linux";

/** Writable in `dirs` only, no network. */
const policy = (dirs: string[]): OsSandboxPolicy => ({
  allowWrite: dirs,
  denyWrite: [],
  denyRead: [],
  allowRead: [],
  allowedDomains: [],
  deniedDomains: [],
  allowUnixSockets: [],
  allowAllUnixSockets: false,
  allowLocalBinding: false,
  enableWeakerNestedSandbox: false,
});

describe("the OS tier's pure parts", () => {
  it.each([
    [
      ["bubblewrap (bwrap) not installed"],
      "the OS sandbox needs bubblewrap (missing here): install it (e.g. apt-get install bubblewrap)",
    ],
    [
      ["bubblewrap (bwrap) not installed", "socat not installed", "ripgrep (rg) not found"],
      "the OS sandbox needs bubblewrap, socat, ripgrep (missing here): install them (e.g. apt-get install bubblewrap socat ripgrep)",
    ],
    [["user namespaces\nare off"], "the OS sandbox cannot run here: user namespaces are off"],
  ])("missingDependencyLine(%j)", (errors, line) => {
    expect(missingDependencyLine(errors)).toBe(line);
  });

  it.each([
    ["git status", ["git"], true],
    ["git", ["git"], true],
    ["gitk", ["git"], false],
    ["docker ps -a", ["docker *"], true],
    ["git status && curl x", ["git"], false],
    ["git log $(rm -rf ~)", ["git"], false],
    ["git status", [], false],
    ["ls", [""], false],
  ])("isExcludedCommand(%j, %j) is %s", (command, excluded, expected) => {
    expect(isExcludedCommand(command, excluded)).toBe(expected);
  });

  it.each([
    [
      "bwrap --new-session --die-with-parent --unshare-pid -- bash -c x",
      "bwrap --die-with-parent --unshare-pid -- bash -c x",
    ],
    ["/usr/bin/bwrap --new-session --die-with-parent -- bash", "/usr/bin/bwrap --die-with-parent -- bash"],
    // Only bubblewrap's own option: a command that says --new-session is the command's.
    ["bwrap --die-with-parent -- echo --new-session ", "bwrap --die-with-parent -- echo --new-session "],
    ["/bin/sh -c 'exec bwrap --args 3' 3<profile", "/bin/sh -c 'exec bwrap --args 3' 3<profile"],
  ])("withoutNewSession(%j)", (line, expected) => {
    expect(withoutNewSession(line)).toBe(expected);
  });

  it("capOutput keeps the head within the cap and says what it cut", () => {
    expect(capOutput("short", 10)).toBe("short");
    const cut = capOutput("x".repeat(100), 10);
    expect(cut.startsWith("x".repeat(10))).toBe(true);
    expect(cut).toContain("[output cut: 90 more bytes]");
  });
});

if (!HAS_RUNTIME)
  console.log(
    `os-sandbox: contract skipped: ${MISSING.join(", ") || "not Linux"} missing (apt-get install bubblewrap socat ripgrep)`,
  );

describe.skipIf(!HAS_RUNTIME)("the OS tier", () => {
  const maxOutputBytes = 64 * 1024;
  sandboxContract("os, over @anthropic-ai/sandbox-runtime", async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), "os-sandbox-cwd-")));
    const made = await createOsSandbox({
      policy: policy([cwd]),
      runtime: await loadSandboxRuntime({ path: PATH, platform: process.platform }),
      hostShell: createNodeShell(),
      fs: createNodeFs(),
      maxOutputBytes,
    });
    if (made.kind !== "ok") throw new Error(made.message);
    const { sandbox } = made;
    return {
      sandbox: {
        ...sandbox,
        close: async () => {
          await sandbox.close();
          await rm(cwd, { recursive: true, force: true });
        },
      },
      cwd,
      maxOutputBytes,
    };
  });

  it("refuses with one line when the PATH hides a dependency, and runs nothing", async () => {
    const made = await createOsSandbox({
      policy: policy([]),
      runtime: await loadSandboxRuntime({ path: "", platform: "linux" }),
      hostShell: createNodeShell(),
      fs: createNodeFs(),
    });
    expect(made).toEqual({
      kind: "unavailable",
      message:
        "the OS sandbox needs bubblewrap, socat, ripgrep (missing here): install them (e.g. apt-get install bubblewrap socat ripgrep)",
    });
  });
});
