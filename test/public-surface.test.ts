// The public surface is chosen, not accreted: the exact names of the package's two entries (`skillwright` and
// `skillwright/testing`) are pinned here, so adding or removing one is a deliberate edit of this file. Every name
// of the main entry carries a doc comment at its declaration, and the README's library examples import only
// names the entries export.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Everything `src/index.ts` exports: values and types. */
const INDEX_NAMES = [
  "AgentEvent",
  "AgentResult",
  "AgentTool",
  "AskPermission",
  "BundledRegistry",
  "BundledSkillDefinition",
  "DEFAULT_MODEL",
  "DIAGNOSTIC_CODES",
  "Diagnostic",
  "DiagnosticCode",
  "DirEntry",
  "Discovery",
  "Engine",
  "EngineOptions",
  "FileHead",
  "FileStat",
  "FsOps",
  "MemorySkillDefinition",
  "ModelClient",
  "ModelClientOptions",
  "ModelEffort",
  "ModelError",
  "ModelMessage",
  "OpenSessionOptions",
  "OpenedSession",
  "PermissionDecision",
  "PermissionRules",
  "SKILL_TIERS",
  "Sandbox",
  "Session",
  "SimulatedSandboxOptions",
  "TranscriptStore",
  "Severity",
  "ShellOps",
  "ShellResult",
  "ShellRunOptions",
  "Skill",
  "SkillCatalog",
  "SkillInfo",
  "SkillMeta",
  "SkillRetriever",
  "SkillSource",
  "SkillSwitches",
  "Tool",
  "ToolContext",
  "ToolResult",
  "TranscriptEntry",
  "UnknownEnvironmentError",
  "UnknownSessionError",
  "UsageEntry",
  "UsageScores",
  "UsageStore",
  "createEmbeddingRetriever",
  "createEngine",
  "createFileTranscriptStore",
  "createFileUsageStore",
  "createMemoryFs",
  "createMemorySource",
  "createModelClient",
  "createNodeFs",
  "createNodeShell",
  "createSimulatedSandbox",
  "defineSkillTool",
  "defineTool",
  "hasErrors",
  "openSession",
];

/** The values among them: what `dist/index.js` exports at run time. */
const INDEX_VALUES = [
  "DEFAULT_MODEL",
  "DIAGNOSTIC_CODES",
  "ModelError",
  "SKILL_TIERS",
  "UnknownEnvironmentError",
  "UnknownSessionError",
  "createEmbeddingRetriever",
  "createEngine",
  "createFileTranscriptStore",
  "createFileUsageStore",
  "createMemoryFs",
  "createMemorySource",
  "createModelClient",
  "createNodeFs",
  "createNodeShell",
  "createSimulatedSandbox",
  "defineSkillTool",
  "defineTool",
  "hasErrors",
  "openSession",
];

/** Everything `src/testing.ts` exports. */
const TESTING_NAMES = [
  "ModelScript",
  "ModelScriptInput",
  "ModelServer",
  "ModelServerOptions",
  "RecordedRequest",
  "ScriptContentBlock",
  "ScriptFault",
  "ScriptMatch",
  "ScriptResponse",
  "ScriptTurn",
  "ScriptTurnInput",
  "loadScript",
  "parseScript",
  "startModelServer",
];

/** The values among them: what `dist/testing.js` exports at run time. */
const TESTING_VALUES = ["ModelScript", "loadScript", "parseScript", "startModelServer"];

const ENTRIES = ["src/index.ts", "src/testing.ts"];
const program = ts.createProgram(
  ENTRIES.map((e) => `${ROOT}${e}`),
  {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  },
);
const checker = program.getTypeChecker();

/** The exported symbols of an entry, each resolved to the symbol it re-exports. */
function exportsOf(entry: string): { name: string; target: ts.Symbol }[] {
  const source = program.getSourceFile(`${ROOT}${entry}`);
  if (source === undefined) throw new Error(`${entry} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${entry} has no exports`);
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => ({
    name: symbol.name,
    target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
  }));
}

/** The names in code-point order (what `toEqual` compares against). */
function sorted(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** True when some declaration of `symbol` has a `/** … *\/` comment with text. */
function hasDocComment(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((declaration) =>
    ts
      .getJSDocCommentsAndTags(declaration)
      .some((doc) => ts.isJSDoc(doc) && ts.getTextOfJSDocComment(doc.comment)?.trim()),
  );
}

describe("the public surface", () => {
  // 63: 60, then defineSkillTool (issue 31 item 2), then the pluggable skill retriever (issue #25 item 2):
  // `SkillRetriever` and `createEmbeddingRetriever`. The context seam's types are reached through
  // OpenSessionOptions["transformContext"] and ["skillContext"]; the retriever's request and answer through
  // `Parameters<SkillRetriever["retrieve"]>`. 66: then the sandbox (issue #40 item 4): `Sandbox`,
  // `createSimulatedSandbox` and its `SimulatedSandboxOptions` (its network and limits are reached through
  // SimulatedSandboxOptions["network"] and ["limits"], the tier through Sandbox["tier"]).
  it("src/index.ts exports exactly the pinned names, at most 66", () => {
    const names = sorted(exportsOf("src/index.ts").map((e) => e.name));
    expect(names).toEqual(sorted(INDEX_NAMES));
    expect(names.length).toBeLessThanOrEqual(66);
  });

  it("src/testing.ts exports exactly the pinned names", () => {
    expect(sorted(exportsOf("src/testing.ts").map((e) => e.name))).toEqual(sorted(TESTING_NAMES));
  });

  it("the built entries export exactly the pinned values", async () => {
    for (const file of ["dist/index.js", "dist/testing.js"]) {
      expect(existsSync(`${ROOT}${file}`), "run `npm run build` before the tests").toBe(true);
    }
    expect(sorted(Object.keys(await import(`${ROOT}dist/index.js`)))).toEqual(sorted(INDEX_VALUES));
    expect(sorted(Object.keys(await import(`${ROOT}dist/testing.js`)))).toEqual(sorted(TESTING_VALUES));
  });

  it("every name of both entries has a doc comment where it is declared", () => {
    const undocumented = ENTRIES.flatMap((entry) =>
      exportsOf(entry)
        .filter((e) => !hasDocComment(e.target))
        .map((e) => `${entry}: ${e.name}`),
    );
    expect(undocumented).toEqual([]);
  });

  it("the README imports only names the entries export", () => {
    const readme = readFileSync(`${ROOT}README.md`, "utf8");
    const exported: Record<string, string[]> = {
      skillwright: INDEX_NAMES,
      "skillwright/testing": TESTING_NAMES,
    };
    const imports = [...readme.matchAll(/import \{([^}]*)\} from "(skillwright(?:\/[a-z]+)?)"/g)];
    expect(imports.map((m) => m[2])).toEqual(expect.arrayContaining(["skillwright", "skillwright/testing"]));
    for (const [, names = "", entry = ""] of imports) {
      const known = exported[entry];
      expect(known, `README imports from an unknown entry ${entry}`).toBeDefined();
      for (const name of names.split(",").map((n) => n.trim().replace(/^type /, ""))) {
        expect(known, `README imports ${name} from ${entry}`).toContain(name);
      }
    }
  });
});
