import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import type { Sandbox } from "../../src/sandbox/sandbox.js";
import { createSimulatedSandbox } from "../../src/sandbox/simulated-sandbox.js";
import { CORPUS_DIR, corpusPath, describeWithCorpus } from "../support/corpus.js";
import { type CodeNeeds, codeNeeds, skillCode, type TierOffer } from "../support/corpus-code.js";

// Issue #40: which real skills of the corpus run in the simulated tier, and which need real binaries or
// third-party Python packages. Each skill's code is read (test/support/corpus-code.ts); what its imports and
// commands need is probed in the tier itself; the list in docs/sandbox.md must be what this finds
// (SKILLWRIGHT_WRITE_CORPUS_SANDBOX=1 writes it). And one of the corpus's scripts that the scan says runs does:
// skill-creator's generate_report.py, writing its report to /workspace.

const DOC = fileURLToPath(new URL("../../docs/sandbox.md", import.meta.url));
const START = "<!-- corpus-sandbox:start -->";
const END = "<!-- corpus-sandbox:end -->";

/** The folders of the corpus's skills (every folder holding a SKILL.md), sorted by path. */
function corpusSkills(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (existsSync(join(path, "SKILL.md"))) out.push(path);
      else walk(path);
    }
  };
  walk(root);
  return out.sort();
}

/** What the tier offers of `modules` and `commands`, asked of the tier itself. */
async function probe(sandbox: Sandbox, modules: string[], commands: string[]): Promise<TierOffer> {
  const script =
    "import importlib.util, json, sys\n" +
    "names = json.load(sys.stdin)\n" +
    "found = []\n" +
    "for name in names:\n" +
    "    try:\n" +
    "        if importlib.util.find_spec(name) is not None: found.append(name)\n" +
    "    except Exception: pass\n" +
    "print(json.dumps(found))\n";
  await sandbox.fs.writeFile("/probe.py", script);
  const py = await sandbox.shell.run("python3 /probe.py", { cwd: "/", input: JSON.stringify(modules) });
  expect(py.exitCode, py.stderr).toBe(0);
  const found: string[] = JSON.parse(py.stdout);
  const sh = await sandbox.shell.run(
    `for c in ${commands.map((c) => `'${c}'`).join(" ")}; do found=$(command -v "$c") && echo "$c"; done`,
    { cwd: "/" },
  );
  return { modules: new Set(found), commands: new Set(sh.stdout.split("\n").filter((l) => l !== "")) };
}

/** The docs' list: one line per skill with code, by public name, saying what runs and what each part needs. */
function listing(rows: { name: string; where: string; needs: CodeNeeds[] }[]): string {
  const runs = rows.filter((r) => r.needs.every((n) => n.packages.length === 0 && n.binaries.length === 0));
  const partly = rows.filter((r) => !runs.includes(r));
  const part = (n: CodeNeeds) => {
    const why = [
      ...(n.packages.length > 0 ? [`Python packages ${n.packages.join(", ")}`] : []),
      ...(n.binaries.length > 0 ? [`binaries ${n.binaries.join(", ")}`] : []),
    ];
    return `\`${n.path}\` (${why.join("; ")})`;
  };
  const lines = [
    "**Run in the simulated tier** (all their code):",
    "",
    ...runs.map((r) => `- ${r.name} (${r.where}): ${r.needs.map((n) => `\`${n.path}\``).join(", ")}`),
    "",
    "**Need real binaries or third-party Python packages** (what runs here, then what does not and why):",
    "",
    ...partly.map((r) => {
      const ok = r.needs.filter((n) => n.packages.length === 0 && n.binaries.length === 0);
      const not = r.needs.filter((n) => !ok.includes(n));
      const runsHere = ok.length === 0 ? "" : ` runs here: ${ok.map((n) => `\`${n.path}\``).join(", ")};`;
      return `- ${r.name} (${r.where}):${runsHere} needs: ${not.map(part).join(", ")}`;
    }),
  ];
  return lines.join("\n");
}

describeWithCorpus("the corpus in the simulated tier", () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSimulatedSandbox({ fs: createMemoryFs() });
  });
  afterAll(async () => {
    await sandbox?.close?.();
  });

  it("lists in docs/sandbox.md which skills run here and which need binaries or packages", async () => {
    const root = CORPUS_DIR ?? "";
    const skills = corpusSkills(root).map((dir) => ({ dir, ...skillCode(dir) }));
    const modules = [
      ...new Set(skills.flatMap((s) => s.files.flatMap((f) => (f.kind === "python" ? f.imports : [])))),
    ].sort();
    const commands = [
      ...new Set(
        skills.flatMap((s) =>
          s.files.flatMap((f) => (f.kind === "shell" || f.kind === "skill-md" ? f.commands : [])),
        ),
      ),
    ].sort();
    const offer = await probe(sandbox, modules, commands);
    // The probe answers: the standard library imports, a third-party package does not, bash's own commands exist.
    expect(offer.modules.has("json")).toBe(true);
    expect(modules.includes("yaml") ? offer.modules.has("yaml") : false).toBe(false);
    expect(commands.includes("grep") ? offer.commands.has("grep") : true).toBe(true);
    const rows = skills
      .filter((s) => s.files.length > 0)
      .map((s) => ({
        name: basename(s.dir),
        where: relative(root, dirname(s.dir)).split("/")[0] ?? "",
        needs: codeNeeds(s.files, offer),
      }));
    const computed = listing(rows);
    const doc = readFileSync(DOC, "utf8");
    const section = `${START}\n${computed}\n${END}`;
    const now = doc.replace(new RegExp(`${START}[\\s\\S]*${END}`), section);
    if (process.env.SKILLWRIGHT_WRITE_CORPUS_SANDBOX === "1") writeFileSync(DOC, now);
    expect(doc).toContain(section);
  }, 300_000);

  it("runs skill-creator's generate_report.py from its skill folder, writing its report to /workspace", async () => {
    const script = readFileSync(
      corpusPath("anthropics-skills", "skill-creator", "scripts", "generate_report.py"),
      "utf8",
    );
    const fs = sandbox.fs;
    await fs.mkdir("/mnt/skills/skill-creator/scripts");
    await fs.writeFile("/mnt/skills/skill-creator/scripts/generate_report.py", script);
    await fs.mkdir("/workspace");
    const history = [
      {
        iteration: 1,
        description: "Sums numbers",
        train_passed: 1,
        train_total: 1,
        train_results: [{ query: "sum 6 and 7", should_trigger: true, pass: true, triggers: 1, runs: 1 }],
      },
    ];
    await fs.writeFile("/workspace/loop.json", JSON.stringify({ history, holdout: 0 }));
    const result = await sandbox.shell.run(
      "python3 /mnt/skills/skill-creator/scripts/generate_report.py /workspace/loop.json " +
        "--skill-name calc -o /workspace/report.html",
      { cwd: "/workspace" },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("Report written to /workspace/report.html");
    const report = await fs.readFile("/workspace/report.html");
    expect(report).toContain("<title>calc \u2014 Skill Description Optimization</title>");
    expect(report).toContain("sum 6 and 7");
  }, 300_000);
});
