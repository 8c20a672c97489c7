import { existsSync, readFileSync } from "node:fs";
import { copyFile, lstat, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type ResultPromise } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt } from "./run-cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGE_VERSION = (JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { version: string })
  .version;
/** A 3000x1200 PNG: Read scales it, which loads sharp from the installed package's dependencies. */
const WIDE_PNG = fileURLToPath(new URL("../fixtures/images/wide-3000x1200.png", import.meta.url));
/** The package's unpacked size at most (issue #30): 8 MB. */
const MAX_UNPACKED_BYTES = 8 * 1024 * 1024;

/**
 * The most `node_modules` may take when the package is installed with `--omit=optional` (issue #45): 100 MB.
 * just-bash, the simulated sandbox (29 MB, with sql.js 31 MB for its sqlite3 and node-liblzma 4 MB), is optional
 * since; with it the lean install measured 154.6 MB.
 */
const LEAN_MAX_BYTES = 100 * 1000 * 1000;

/** What `npm pack --json` says about a tarball. */
interface PackManifest {
  unpackedSize: number;
  files: { path: string; size: number }[];
}

let tree: TmpTree;
beforeAll(async () => {
  assertBuilt();
  tree = await tmpTree({
    "pack/.keep": "",
    "home/.keep": "",
    "user-project/package.json": JSON.stringify({ name: "user-project", version: "1.0.0", private: true }),
    "user-project/.git/HEAD": "",
    "user-project/.claude/skills/folded/SKILL.md":
      "---\ndescription: |\n  Needs the full\n  YAML parser.\nmetadata:\n  owner:\n    team: docs\n---\nBody\n",
  });
});
afterAll(() => tree.cleanup());

describe("the published package", () => {
  it("npm pack (lean: no maps, ≤ 8 MB), npm install the tarball in a fresh project, npx skillwright: the full YAML parser works", async () => {
    // --ignore-scripts: `prepare` would rebuild dist/ while other tests run it; CI builds before the tests.
    const packed = await execa(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", tree.path("pack")],
      { cwd: ROOT },
    );
    const [manifest] = JSON.parse(packed.stdout) as PackManifest[];
    const paths = manifest?.files.map((f) => f.path) ?? [];
    // Lean: no source maps (a build asks for them with `npm run build:maps`), no dist/cli (the bundle's input).
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    expect(paths.filter((p) => p.startsWith("dist/cli/"))).toEqual([]);
    // The licence the package.json names ships with it.
    expect(paths).toContain("LICENSE");
    expect(manifest?.unpackedSize).toBeLessThanOrEqual(MAX_UNPACKED_BYTES);
    const [tarball] = (await readdir(tree.path("pack"))).filter((f) => f.endsWith(".tgz"));
    expect(tarball).toBeDefined();
    const project = tree.path("user-project");
    await execa(
      "npm",
      ["install", join(tree.path("pack"), String(tarball)), "--prefer-offline", "--no-audit", "--no-fund"],
      { cwd: project },
    );
    const env = {
      SKILLWRIGHT_HOME: tree.path("home"),
      SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      SKILLWRIGHT_DISCOVERY_CACHE: "off",
    };
    const version = await execa("npx", ["--no-install", "skillwright", "--version"], { cwd: project, env });
    expect(version.stdout).toBe(PACKAGE_VERSION);
    const list = await execa("npx", ["--no-install", "skillwright", "list", "--json"], {
      cwd: project,
      env,
      reject: false,
    });
    expect(list.exitCode, list.stderr).toBe(0);
    const skills = JSON.parse(list.stdout) as { name: string; source: string; description: string }[];
    expect(skills.find((s) => s.name === "folded")).toMatchObject({
      source: "project",
      description: "Needs the full YAML parser.",
    });
    // The package's own bundled skills come along.
    expect(skills.some((s) => s.source === "bundled")).toBe(true);
    const doctor = await execa("npx", ["--no-install", "skillwright", "doctor", "--strict"], {
      cwd: project,
      env,
      reject: false,
    });
    expect(doctor.stdout).not.toContain("yaml-invalid");
    expect(doctor.stdout).toContain("Diagnostics: none");
    expect(doctor.exitCode, doctor.stderr).toBe(0);

    // Both entries resolve by name in the installed package, and work together as the README shows: a session
    // opened through `skillwright` talks to the scripted server from `skillwright/testing`.
    const script = [
      'import { createEngine, createModelClient, openSession } from "skillwright";',
      'import { startModelServer } from "skillwright/testing";',
      "const server = await startModelServer({",
      "  script: { turns: [",
      '    { response: { content: [{ type: "tool_use", name: "Read", input: { file_path: "wide.png" } }] } },',
      '    { response: { content: [{ type: "text", text: "Hello from the script" }] } },',
      "  ] },",
      "});",
      "const engine = createEngine({ cwd: process.cwd(), home: process.env.SKILLWRIGHT_HOME, env: {} });",
      'const client = createModelClient({ apiKey: "test", baseURL: server.url });',
      "const { session } = await openSession(engine, { client });",
      'for await (const event of session.send("hi")) if (event.type === "done") console.log(event.result.text);',
      // Read scales the image with sharp, loaded lazily from the installed package's dependencies.
      "const read = server.requests[1].body.messages.at(-1).content[0].content[0].text;",
      "console.log(read);",
      "await session.close();",
      "await engine.close();",
      "await server.close();",
    ].join("\n");
    await writeFile(join(project, "check.mjs"), script);
    await copyFile(WIDE_PNG, join(project, "wide.png"));
    const library = await execa("node", ["check.mjs"], {
      cwd: project,
      env,
      reject: false,
    });
    expect(library.stderr).toBe("");
    expect(library.stdout).toMatch(
      /^Hello from the script\nRead image wide\.png \[image\/png, 3\.5 KB, scaled from 3000x1200 to 2000x800 \([^)]*\)\]$/,
    );
    expect(library.exitCode).toBe(0);

    // `skillwright serve` works from the installed package with no database set up: PGlite's wasm and data
    // files load from its own node_modules dir. The bin itself, not npx: npx does not pass SIGTERM on.
    const serve = execa(
      join(project, "node_modules", ".bin", "skillwright"),
      ["serve", "--port", "0", "--db", tree.path("serve-data"), "--api-key", "k"],
      { cwd: project, env, reject: false },
    );
    const url = await listeningUrl(serve);
    const listed = await fetch(`${url}/v1/skills`, { headers: { authorization: "Bearer k" } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ data: [], has_more: false });
    serve.kill("SIGTERM");
    const served = await serve;
    expect(served.stdout).toContain("sessions run code in the simulated sandbox");
    // The simulated sandbox (just-bash, an optional dependency) runs from the default install.
    const sandboxScript = [
      'import { createMemoryFs, createSimulatedSandbox } from "skillwright";',
      'const sandbox = createSimulatedSandbox({ fs: createMemoryFs({ "/workspace/.keep": "" }) });',
      'const run = await sandbox.shell.run("echo $((6 * 7)) > n.txt && cat n.txt", { cwd: "/workspace" });',
      "console.log(run.stdout.trim(), run.exitCode);",
      "await sandbox.close();",
    ].join("\n");
    await writeFile(join(project, "sandbox.mjs"), sandboxScript);
    const sandboxRun = await execa("node", ["sandbox.mjs"], { cwd: project, env, reject: false });
    expect(sandboxRun.stderr).toBe("");
    expect(sandboxRun.stdout).toBe("42 0");
    installedBytes.full = await treeBytes(join(project, "node_modules"));
  }, 900_000);

  it("installed with --omit=optional: ≤ 100 MB, a working CLI and serve without sharp, OpenTelemetry's SDK, the sandbox runtime or just-bash, each naming what to install", async () => {
    const [tarball] = (await readdir(tree.path("pack"))).filter((f) => f.endsWith(".tgz"));
    expect(tarball, "the first test packs the tarball").toBeDefined();
    const project = tree.path("lean-project");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "lean", version: "1.0.0", private: true }),
    );
    await execa(
      "npm",
      [
        "install",
        join(tree.path("pack"), String(tarball)),
        "--omit=optional",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
      ],
      { cwd: project },
    );
    const modules = join(project, "node_modules");
    for (const left of [
      "sharp",
      "@opentelemetry/sdk-trace-base",
      "@anthropic-ai/sandbox-runtime",
      "just-bash",
    ])
      expect(existsSync(join(modules, left)), `${left} is left out`).toBe(false);
    const lean = await treeBytes(modules);
    console.log(
      `installed node_modules: ${(installedBytes.full / 1e6).toFixed(1)} MB by default, ` +
        `${(lean / 1e6).toFixed(1)} MB with --omit=optional`,
    );
    expect(lean).toBeLessThanOrEqual(LEAN_MAX_BYTES);
    const env = {
      SKILLWRIGHT_HOME: tree.path("home"),
      SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      SKILLWRIGHT_DISCOVERY_CACHE: "off",
    };
    const bin = join(modules, ".bin", "skillwright");
    expect((await execa(bin, ["--version"], { cwd: project, env })).stdout).toBe(PACKAGE_VERSION);
    const list = await execa(bin, ["list", "--json"], { cwd: project, env, reject: false });
    expect(list.exitCode, list.stderr).toBe(0);
    // Telemetry asked for: a warning naming what to install, and serve still works.
    const serve = execa(
      bin,
      ["serve", "--port", "0", "--db", tree.path("lean-serve-data"), "--api-key", "k"],
      {
        cwd: project,
        env: { ...env, SKILLWRIGHT_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
        reject: false,
      },
    );
    let err = "";
    serve.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    const url = await listeningUrl(serve);
    const listed = await fetch(`${url}/v1/skills`, { headers: { authorization: "Bearer k" } });
    expect(listed.status).toBe(200);
    serve.kill("SIGTERM");
    const served = await serve;
    // No just-bash: the start-up block says the simulated sandbox is unavailable and what to install; sessions
    // run no code (never the host's shell).
    expect(served.stdout).toContain(
      "sandbox:    the simulated sandbox is unavailable: the simulated sandbox of served sessions (serve --sandbox " +
        "simulated, the default) needs the optional package just-bash, which is not installed",
    );
    expect(served.stdout).toContain("install it with npm install just-bash. Until then sessions run no code");
    expect(err).toContain(
      "telemetry (SKILLWRIGHT_ENABLE_TELEMETRY) needs the optional package @opentelemetry/sdk-trace-base, which is not installed",
    );
    expect(err).toContain("telemetry is off");
    // Asked for by name, the simulated sandbox that is not installed is refused with the same line.
    const simulated = await execa(
      bin,
      [
        "serve",
        "--port",
        "0",
        "--db",
        tree.path("lean-serve-data"),
        "--api-key",
        "k",
        "--sandbox",
        "simulated",
      ],
      { cwd: project, env, reject: false },
    );
    expect(simulated.exitCode).toBe(1);
    expect(simulated.stdout).toBe("");
    expect(simulated.stderr).toContain(
      "skillwright: serve --sandbox simulated: the simulated sandbox of served sessions (serve --sandbox " +
        "simulated, the default) needs the optional package just-bash, which is not installed",
    );
    expect(simulated.stderr).toContain("npm install just-bash");
  }, 240_000);
});

/** The URL a started `serve` prints once it listens (rejects with its stderr if it exits first). */
function listeningUrl(serve: ResultPromise): Promise<string> {
  let out = "";
  return new Promise<string>((resolve, reject) => {
    serve.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    serve.then((result) => reject(new Error(`serve exited: ${String(result.stderr)}`)));
  });
}

/** The bytes of every file under `dir` (symlinks not followed). */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await lstat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** The default install's size, measured by the first test for the second to print beside its own. */
const installedBytes = { full: 0 };
