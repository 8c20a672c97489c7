// The V8 code cache of a -p run (src/cli/code-cache.ts, scripts/bundle.mjs): dist/bin/main.js compiles the
// print bundle (one CommonJS file) through ~/.skillwright/cache/code/. Each case runs the built bin against the
// scripted model server; SKILLWRIGHT_CODE_CACHE_DEBUG makes the run say what the cache did on stderr.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as zlib from "node:zlib";
import { execa } from "execa";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decodeCodeCache, encodeCodeCache, staleCodeCaches } from "../../src/cli/code-cache.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

const ANSWER = "answered-through-the-cache";

let tree: TmpTree;
let model: TestModel;
let home: string;
let run = 0;
beforeAll(async () => {
  assertBuilt();
  tree = await tmpTree({ "project/.git": { dir: true } });
  model = await startTestModel([{ ...textTurn(ANSWER), repeat: true }]);
});
afterAll(async () => {
  await model.close();
  await tree.cleanup();
});
beforeEach(() => {
  run += 1;
  home = tree.path(`home-${run}`);
});

const codeDir = () => join(home, ".skillwright", "cache", "code");

async function printRun(env: Record<string, string> = {}) {
  const result = await execa(
    process.execPath,
    [BIN, "-p", "go", "--cwd", tree.path("project"), "--home", home],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
        SKILLWRIGHT_CODE_CACHE_DEBUG: "1",
        ...env,
      },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
      timeout: 30_000,
    },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stdout.trim()).toBe(ANSWER);
  return result.stderr.trim();
}

/** An offline command through the bin, as printRun runs -p; resolves to its stderr (the cache's line). */
async function commandRun(args: string[]) {
  const result = await execa(
    process.execPath,
    [BIN, ...args, "--cwd", tree.path("project"), "--home", home],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
        SKILLWRIGHT_CODE_CACHE_DEBUG: "1",
      },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
      timeout: 60_000,
    },
  );
  expect([0, 1], result.stderr).toContain(result.exitCode);
  return result.stderr.trim().split("\n").at(-1) ?? "";
}

/** The one cache file a run wrote (its name: the print bundle's, node's version and the architecture). */
function cacheFile(): string {
  const files = readdirSync(codeDir());
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(new RegExp(`^p-run-[A-Z0-9]+\\.cjs-${process.version}-${process.arch}\\.bin$`));
  return join(codeDir(), files[0] ?? "");
}

describe("the code cache of a -p run", () => {
  it("the first run writes the cache, the second compiles from it", async () => {
    expect(await printRun()).toBe("skillwright: code cache missing, written");
    const written = readFileSync(cacheFile());
    expect(decodeCodeCache(written)?.length).toBeGreaterThan(0);
    expect(await printRun()).toBe("skillwright: code cache accepted, kept");
    expect(readFileSync(cacheFile()).equals(written)).toBe(true);
  });

  it("a damaged cache file is ignored and replaced, whether its header or its payload is hit", async () => {
    await printRun();
    const file = cacheFile();
    writeFileSync(file, "not a code cache");
    expect(await printRun()).toBe("skillwright: code cache corrupt, written");
    expect(await printRun()).toBe("skillwright: code cache accepted, kept");
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    const at = flipped.length - 100;
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    writeFileSync(file, flipped);
    expect(await printRun()).toBe("skillwright: code cache corrupt, written");
    expect(await printRun()).toBe("skillwright: code cache accepted, kept");
  });

  it("a cache V8 refuses (a valid file of ours, another script's code) is rejected and replaced", async () => {
    await printRun();
    const file = cacheFile();
    writeFileSync(file, encodeCodeCache(Buffer.from("valid digest, but no V8 code cache")));
    expect(await printRun()).toBe("skillwright: code cache rejected, written");
    expect(await printRun()).toBe("skillwright: code cache accepted, kept");
  });

  it("SKILLWRIGHT_CODE_CACHE=off compiles from source and writes nothing", async () => {
    expect(await printRun({ SKILLWRIGHT_CODE_CACHE: "off" })).toBe("skillwright: code cache off, kept");
    expect(existsSync(codeDir())).toBe(false);
  });

  it("a cache dir that cannot be written costs nothing but the cache", async () => {
    mkdirSync(join(home, ".skillwright", "cache"), { recursive: true });
    writeFileSync(codeDir(), "a file where the dir should be");
    expect(await printRun()).toBe("skillwright: code cache missing, failed");
    expect(await printRun()).toBe("skillwright: code cache missing, failed");
  });

  it("writing the cache deletes the one an older build left for this runtime, and only that", async () => {
    const runtime = `${process.version}-${process.arch}`;
    const older = `p-run-OLDBUILD.cjs-${runtime}.bin`;
    const kept = [`p-run-OLDBUILD.cjs-v18.0.0-${process.arch}.bin`, "notes.txt"];
    mkdirSync(codeDir(), { recursive: true });
    for (const file of [older, ...kept]) writeFileSync(join(codeDir(), file), "x");
    expect(await printRun()).toBe("skillwright: code cache missing, written");
    const files = readdirSync(codeDir());
    expect(files).not.toContain(older);
    expect(files).toEqual(expect.arrayContaining(kept));
    expect(files).toHaveLength(3);
  });

  it("list, doctor and search run from the print bundle too, each through a cache file of its own", async () => {
    expect(await printRun()).toBe("skillwright: code cache missing, written");
    for (const command of [
      ["list", "--json"],
      ["doctor", "--json"],
      ["search", "anything"],
    ]) {
      const name = command[0] ?? "";
      expect(await commandRun(command), name).toBe("skillwright: code cache missing, written");
      expect(await commandRun(command), name).toBe("skillwright: code cache accepted, kept");
    }
    expect(await printRun()).toBe("skillwright: code cache accepted, kept");
    const files = readdirSync(codeDir()).sort();
    const runtime = `${process.version}-${process.arch}`;
    expect(files.map((f) => f.replace(/^p-run-[A-Z0-9]+\.cjs-/, ""))).toEqual(
      [`${runtime}.bin`, `doctor-${runtime}.bin`, `list-${runtime}.bin`, `search-${runtime}.bin`].sort(),
    );
  });

  it("without the debug variable a run says nothing about the cache", async () => {
    expect(await printRun({ SKILLWRIGHT_CODE_CACHE_DEBUG: "" })).toBe("");
    expect(await printRun({ SKILLWRIGHT_CODE_CACHE_DEBUG: "" })).toBe("");
  });
});

describe("staleCodeCaches", () => {
  const current = "p-run-NEW.cjs-v20.1.0-x64.bin";
  it.each([
    ["p-run-OLD.cjs-v20.1.0-x64.bin", true],
    ["p-run-NEW.cjs-v20.1.0-x64.bin", false],
    ["p-run-OLD.cjs-v22.0.0-x64.bin", false],
    ["p-run-OLD.cjs-v20.1.0-arm64.bin", false],
    ["p-run-OLD.cjs-v20.1.0-x64.bin.123.tmp", false],
    ["sdk-floor-OLD.cjs-v20.1.0-x64.bin", false],
    ["p-run-OLD.cjs-list-v20.1.0-x64.bin", false],
  ])("%s: stale %s", (file, stale) => {
    expect(staleCodeCaches([file, current], current)).toEqual(stale ? [file] : []);
  });
  it.each([
    ["p-run-OLD.cjs-list-v20.1.0-x64.bin", true],
    ["p-run-OLD.cjs-doctor-v20.1.0-x64.bin", false],
    ["p-run-OLD.cjs-v20.1.0-x64.bin", false],
  ])("a command's cache %s: stale %s", (file, stale) => {
    const list = "p-run-NEW.cjs-list-v20.1.0-x64.bin";
    expect(staleCodeCaches([file, list], list)).toEqual(stale ? [file] : []);
  });
});

describe("the cache file format", () => {
  it("round-trips V8's bytes and refuses anything else", () => {
    const data = Buffer.from("some bytes");
    expect(decodeCodeCache(encodeCodeCache(data))?.equals(data)).toBe(true);
    expect(decodeCodeCache(Buffer.from(""))).toBeUndefined();
    expect(decodeCodeCache(encodeCodeCache(Buffer.from("")))).toBeUndefined();
    expect(decodeCodeCache(Buffer.concat([encodeCodeCache(data), Buffer.from("x")]))).toBeUndefined();
  });

  it("carries a CRC-32 (cheap) where node has zlib.crc32, and still reads the SHA-256 format", () => {
    const data = Buffer.from("some bytes");
    expect(encodeCodeCache(data).subarray(0, 8).toString()).toBe("crc32" in zlib ? "SWCC-C32" : "SWCC-256");
    const sha = Buffer.concat([Buffer.from("SWCC-256"), createHash("sha256").update(data).digest(), data]);
    expect(decodeCodeCache(sha)?.equals(data)).toBe(true);
    sha[sha.length - 1] = 0;
    expect(decodeCodeCache(sha)).toBeUndefined();
  });
});
