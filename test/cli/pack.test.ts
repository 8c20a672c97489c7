import { readFileSync } from "node:fs";
import { copyFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
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
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      serve.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (\S+)/.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      serve.then((result) => reject(new Error(`serve exited: ${result.stderr}`)));
    });
    const listed = await fetch(`${url}/v1/skills`, { headers: { authorization: "Bearer k" } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ data: [], has_more: false });
    serve.kill("SIGTERM");
    await serve;
  }, 180_000);
});
