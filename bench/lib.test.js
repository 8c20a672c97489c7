// Self-tests for the bench helpers: `node --test bench/` (no build needed; nothing here imports dist/).
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { messageChars, prefixBreaks, requestUnits, servedFromCache } from "./cache-prefix.js";
import { generateCorpus } from "./corpus.js";
import { fsFloor, fsFloorSync } from "./fs-floor.js";
import { compare, createRng, formatTable, median, runChild, withTempDir } from "./lib.js";
import { parseProcStat } from "./proc-stat.js";
import { categoryOf } from "./profile.js";
import { perTurn, tableRows, closing as turnClosing } from "./serve-turn.js";
import { latencyFigures, quantile, closing as uploadClosing } from "./serve-upload.js";

describe("createRng", () => {
  it("repeats a sequence for a seed and differs across seeds", () => {
    const draw = (/** @type {number} */ seed) => {
      const rng = createRng(seed);
      return Array.from({ length: 5 }, () => rng.next());
    };
    assert.deepEqual(draw(7), draw(7));
    assert.notDeepEqual(draw(7), draw(8));
  });
  it("keeps int() inside its bounds and reaches both ends", () => {
    const rng = createRng(1);
    const seen = new Set(Array.from({ length: 500 }, () => rng.int(2, 4)));
    assert.deepEqual([...seen].sort(), [2, 3, 4]);
  });
  it("refuses to pick from an empty list", () => {
    assert.throws(() => createRng(1).pick([]));
  });
});

describe("median", () => {
  for (const [values, expected] of /** @type {[number[], number][]} */ ([
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, 10, 1, 1000, 11], 10],
  ])) {
    it(`of ${JSON.stringify(values)} is ${expected}`, () => assert.equal(median(values), expected));
  }
  it("throws on an empty list", () => assert.throws(() => median([])));
});

describe("formatTable", () => {
  it("left-aligns the first column, right-aligns the others, rules the header", () => {
    assert.equal(
      formatTable(
        ["a", "n"],
        [
          ["long label", "1"],
          ["x", "100"],
        ],
      ),
      ["a             n", "----------  ---", "long label    1", "x           100"].join("\n"),
    );
  });
});

describe("compare", () => {
  it("times every task once per round after the warm-up, rotating who goes first", async () => {
    /** @type {string[]} */
    const order = [];
    const task = (/** @type {string} */ name) => async () => {
      order.push(name);
    };
    const result = await compare({ a: task("a"), b: task("b") }, { runs: 3, warmup: 1 });
    assert.equal(result.a.samples.length, 3);
    assert.equal(result.b.samples.length, 3);
    assert.deepEqual(order, ["a", "b", "b", "a", "a", "b", "b", "a"]);
    assert.equal(typeof result.a.cpuMedian, "number");
  });
});

describe("runChild", () => {
  it("keeps all of a child's output in a file even when the child calls process.exit()", async () => {
    const script = 'process.stdout.write("x".repeat(2_000_000)); process.exit(0);';
    const viaFile = await runChild(process.execPath, ["-e", script], { capture: "file" });
    assert.equal(viaFile.code, 0);
    assert.equal(viaFile.stdout.length, 2_000_000);
  });
});

describe("categoryOf", () => {
  for (const [frame, expected] of /** @type {[{ functionName: string, url: string }, string][]} */ ([
    [{ functionName: "(garbage collector)", url: "" }, "GC"],
    [{ functionName: "openFileHandle", url: "" }, "fs calls (main thread)"],
    [{ functionName: "x", url: "file:///r/node_modules/yaml/dist/parse/lexer.js" }, "yaml"],
    [{ functionName: "x", url: "file:///r/node_modules/@scope/pkg/a.js" }, "@scope/pkg"],
    [{ functionName: "x", url: "file:///r/node_modules/yocto-queue/index.js" }, "p-limit"],
    [{ functionName: "x", url: "file:///r/dist/skill/schema.js" }, "dist/skill"],
    [{ functionName: "x", url: "file:///r/dist/engine/engine.js" }, "dist/engine"],
    [{ functionName: "x", url: "file:///r/dist/index.js" }, "dist (top level)"],
    [{ functionName: "x", url: "node:internal/fs/promises" }, "node internals"],
  ])) {
    it(`puts ${frame.functionName} ${frame.url || "(native)"} in ${expected}`, () =>
      assert.equal(categoryOf(frame), expected));
  }
});

describe("generateCorpus", () => {
  /** @param {string} dir */
  const fingerprint = (dir) => {
    const hash = createHash("sha256");
    /** @param {string} d */
    const walk = (d) => {
      for (const name of readdirSync(d).sort()) {
        const path = join(d, name);
        hash.update(relative(dir, path));
        const stat = lstatSync(path);
        if (stat.isSymbolicLink()) hash.update(`-> ${relative(dir, readlinkSync(path))}`);
        else if (stat.isFile()) hash.update(readFileSync(path));
        else if (stat.isDirectory()) walk(path);
      }
    };
    walk(dir);
    return hash.digest("hex");
  };

  it("writes byte-identical trees for the same size and seed", async () => {
    const [a, b] = await Promise.all(
      [0, 1].map((_) =>
        withTempDir("bench-corpus-", async (dir) => {
          generateCorpus({ dir, n: 300 });
          return fingerprint(dir);
        }),
      ),
    );
    assert.equal(a, b);
  });

  it("holds the advertised mix, and the floor sees every entry and dedups the symlinks", async () => {
    await withTempDir("bench-corpus-", async (dir) => {
      const n = 2_000;
      const { stats, roots } = generateCorpus({ dir, n });
      assert.equal(stats.entries, n);
      assert.equal(stats.files + stats.symlinks, n);
      assert.equal(stats.symlinks, n * 0.02);
      const share = (/** @type {number} */ count) => count / stats.files;
      assert.ok(share(stats.paths) > 0.03 && share(stats.paths) < 0.07, `paths ${stats.paths}`);
      assert.ok(
        share(stats.yamlHeavy) > 0.015 && share(stats.yamlHeavy) < 0.05,
        `yamlHeavy ${stats.yamlHeavy}`,
      );
      assert.ok(share(stats.quoted) > 0.55 && share(stats.quoted) < 0.8, `quoted ${stats.quoted}`);
      assert.ok(
        share(stats.blockScalars) > 0.06 && share(stats.blockScalars) < 0.14,
        `block ${stats.blockScalars}`,
      );
      assert.ok(share(stats.lists) > 0.2 && share(stats.lists) < 0.4, `lists ${stats.lists}`);
      assert.ok(share(stats.maps) > 0.1 && share(stats.maps) < 0.2, `maps ${stats.maps}`);
      assert.ok(stats.crlf > 0 && stats.bom > 0, `crlf ${stats.crlf}, bom ${stats.bom}`);
      const malformed = stats.malformed.badYaml + stats.malformed.unclosed + stats.malformed.binary;
      assert.ok(share(malformed) > 0.003 && share(malformed) < 0.02, `malformed ${malformed}`);
      assert.ok(stats.clashes > 0 && stats.expectedSkills === stats.files - stats.clashes);
      assert.ok(stats.bytes / stats.files > 5_000 && stats.bytes / stats.files < 16_000);
      const floor = await fsFloor(roots);
      assert.equal(floor.found, n);
      assert.equal(floor.unique, stats.files);
      const sync = fsFloorSync(roots);
      assert.equal(sync.found, n);
      assert.equal(sync.unique, stats.files);
      assert.equal(sync.withFrontmatter, floor.withFrontmatter);
    });
  });
});

describe("cache-prefix", () => {
  const mark = { cache_control: { type: "ephemeral" } };
  /** @param {string} model @param {unknown[]} blocks */
  const body = (model, blocks) => ({
    model,
    tools: [{ name: "Read", input_schema: {}, ...mark }],
    system: [{ type: "text", text: "sys", ...mark }],
    messages: [{ role: "user", content: blocks }],
  });
  const a = { type: "text", text: "listing" };
  const b = { type: "text", text: "task one" };
  const c = { type: "text", text: "task two" };

  it("cuts a body into units in API order, cache_control left out of their text", () => {
    const units = requestUnits(body("m", [a, { ...b, ...mark }]));
    assert.deepEqual(units.labels, [
      "tools[0]",
      "system[0]",
      "messages[0][0] (user text)",
      "messages[0][1] (user text)",
    ]);
    assert.deepEqual(units.breakpoints, [0, 1, 3]);
    assert.ok(!units.texts.join("").includes("cache_control"));
    assert.equal(units.chars, units.texts.join("").length);
  });

  it("serves the longest earlier same-model prefix that ends at one of that request's breakpoints", () => {
    const first = requestUnits(body("m", [a, { ...b, ...mark }]));
    const upToSystem = (first.texts[0]?.length ?? 0) + (first.texts[1]?.length ?? 0);
    // `a` is identical but the first request has no breakpoint after it: only tools + system are served.
    const second = servedFromCache(requestUnits(body("m", [a, { ...c, ...mark }])), [first]);
    assert.equal(second.chars, upToSystem);
    assert.match(second.why, /after its last breakpoint|differs/);
    // With a breakpoint on `a` in the earlier request, `a` is served too.
    const marked = requestUnits(
      body("m", [
        { ...a, ...mark },
        { ...b, ...mark },
      ]),
    );
    const third = servedFromCache(requestUnits(body("m", [a, { ...c, ...mark }])), [marked]);
    assert.equal(third.chars, upToSystem + (marked.texts[2]?.length ?? 0));
    // The whole request again: everything is served.
    const same = requestUnits(body("m", [a, { ...b, ...mark }]));
    assert.equal(servedFromCache(same, [first]).chars, same.chars);
    // Another model: nothing, and the reason says so.
    const other = servedFromCache(requestUnits(body("x", [a, { ...b, ...mark }])), [first]);
    assert.equal(other.chars, 0);
    assert.match(other.why, /per model/);
  });

  it("counts prefix breaks: a request whose messages do not begin with the previous one's, marks ignored", () => {
    const grown = body("m", [a, b, { ...c, ...mark }]);
    const changed = body("m", [{ type: "text", text: "stub" }, b, c, { ...a, ...mark }]);
    const after = body("m", [{ type: "text", text: "stub" }, b, c, a, { ...b, ...mark }]);
    // 1 → 2 grows (only the mark moved), 2 → 3 changes block 0, 3 → 4 grows, 4 → 5 is shorter.
    assert.deepEqual(
      prefixBreaks([body("m", [a, { ...b, ...mark }]), grown, changed, after, body("m", [a])]),
      [3, 5],
    );
    assert.deepEqual(prefixBreaks([]), []);
    const one = requestUnits(grown);
    assert.equal(
      messageChars([grown]),
      one.chars - (one.texts[0]?.length ?? 0) - (one.texts[1]?.length ?? 0),
    );
  });
});

describe("serve-upload figures", () => {
  it("takes nearest-rank quantiles and refuses an empty list", () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.equal(quantile(samples, 0.5), 50);
    assert.equal(quantile(samples, 0.99), 99);
    assert.equal(quantile([7], 0.99), 7);
    assert.throws(() => quantile([], 0.5));
  });
  it("gives each row's during / floor ratios, and a verdict against the p99 target", () => {
    const floor = Array.from({ length: 100 }, () => 2);
    const figures = latencyFigures({ get: { floor, during: [...floor.slice(0, 98), 5, 9] } });
    assert.equal(figures.get?.p50Ratio, 1);
    assert.equal(figures.get?.p99Ratio, 2.5);
    assert.match(uploadClosing({ figures }).join("\n"), /p99 2\.50× of its floor.*met/);
    const slow = latencyFigures({ get: { floor, during: [...floor.slice(0, 90), ...Array(10).fill(40)] } });
    assert.match(uploadClosing({ figures: slow }).join("\n"), /MISSED/);
  });
});

describe("serve-turn figures", () => {
  it("reads a /proc stat line whose command holds spaces and parentheses", () => {
    const line = "42 (node (serve) x) S 7 42 42 0 -1 4194560 100 0 0 0 250 50 10 5 20 0 11 0 1 2 3";
    const stat = parseProcStat(line, 100);
    assert.equal(stat.ppid, 7);
    assert.equal(stat.cpuMs, 3000);
    assert.equal(stat.childrenMs, 150);
  });
  it("gives CPU per turn, ratios to the floor and verdicts against the 1.2× target", () => {
    assert.deepEqual(perTurn({ serve: 100, postgres: 10 }, { serve: 300, postgres: 50 }, 20), {
      serve: 10,
      postgres: 2,
    });
    const pair = (/** @type {number} */ ours, /** @type {number} */ floor) => ({
      ours: { serve: ours, postgres: 0 },
      floor: { serve: floor, postgres: 0 },
    });
    const figures = {
      pglite: {
        fresh: { ...pair(10, 5), baseline: { serve: 20, postgres: 0 } },
        kept: pair(3.3, 3),
        concurrent: pair(12, 8),
        load: "load average 1.00 1.00 1.00 on 2 CPUs",
      },
    };
    const rows = tableRows(figures);
    assert.deepEqual(rows[0], ["pglite: fresh session, ours", "10.0", "5.0", "2.00×", "≤ 1.2× floor"]);
    assert.deepEqual(rows[1], ["pglite: fresh session, baseline", "20.0", "5.0", "4.00×", ""]);
    assert.equal(rows.length, 4);
    const [fresh, kept, concurrent] = turnClosing(figures);
    assert.match(fresh ?? "", /fresh session: 10\.0 ms .*2\.00× .*MISSED \(load average 1\.00/);
    assert.match(kept ?? "", /kept session: 3\.3 ms .*1\.10× .*met/);
    assert.match(concurrent ?? "", /concurrent sessions' first turns: 12\.0 ms .*1\.50× .*MISSED/);
  });
});
