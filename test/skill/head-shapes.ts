import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { splitFrontmatter } from "../../src/skill/frontmatter-core.js";

/** Skills we wrote in the shapes real authors use (test/fixtures/skill-shapes). */
const SHAPES = fileURLToPath(new URL("../fixtures/skill-shapes", import.meta.url));

/**
 * Frontmatter heads in the shapes that skill, command, agent and rule files really have, written for the tests:
 * block and folded scalars, quoted values with escapes, flow and block lists, lists of maps, metadata maps,
 * comments, empty values, numbers and booleans, and one mistake real authors make (an unquoted `: `).
 */
const WRITTEN: string[] = [
  // An agent file: a literal block with blank lines and tags, a double-quoted flow list.
  [
    "name: schema-reviewer",
    "description: |",
    '  Use this agent when the user asks to "review the schema", "check a migration" or "find missing indexes".',
    "",
    "  <example>",
    "  Context: A migration was just written",
    '  user: "I added a table for invoices"',
    '  assistant: "I\'ll use the schema-reviewer agent to check it."',
    "  </example>",
    "model: inherit",
    "color: yellow",
    'tools: ["Read", "Grep", "Glob", "Bash"]',
  ].join("\n"),
  // A command: an argument hint that is a flow list, tools with colons and commas in a plain scalar.
  [
    "description: Stage, commit and push the current change",
    "argument-hint: [message]",
    "allowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)",
    'hide-from-slash-command-tool: "true"',
  ].join("\n"),
  // A command with a flow list of tools, an empty value and a trailing comment.
  [
    "description: Explain the selected code",
    "allowed-tools: [Read, Grep]",
    "argument-hint:",
    "model: sonnet # fast",
  ].join("\n"),
  // A rule file: booleans, a regex, a list of maps.
  [
    "name: block-force-push",
    "enabled: true",
    "event: bash",
    "action: block",
    "conditions:",
    "  - field: command",
    "    operator: regex_match",
    "    pattern: git\\s+push\\s+(-f|--force)",
    "  - field: branch",
    "    operator: equals",
    "    pattern: main",
  ].join("\n"),
  // A skill with a folded description, a metadata map nested two deep, numbers and a date-like string.
  [
    "name: weekly-report",
    "description: >-",
    "  Builds the weekly status report from the tracker — open items, what moved,",
    "  what is blocked. Use on Fridays or when asked for a status update.",
    "version: 0.1.0",
    "user-invocable: false",
    "disable-model-invocation: true",
    "metadata:",
    "  owner:",
    "    team: platform",
    "    contact: reports@example.com",
    "  timeout: 30",
    "  ratio: 1.5",
    "  since: 2026-01-05",
  ].join("\n"),
  // Single quotes with a doubled quote, a comment line, unicode.
  [
    "# written by hand",
    "name: café-menu",
    "description: 'Plans a week''s menu ✨ from what is in the fridge. Use when asked what to cook.'",
  ].join("\n"),
  // The mistake: an unquoted `: ` inside a plain description (yaml refuses it; the engine reads it leniently).
  ["name: release-helper", "description: Use this agent when: a release is being cut", "color: green"].join(
    "\n",
  ),
  // The other one: a flow list left open.
  ["description: Searches the code", "allowed-tools: [Read, Grep"].join("\n"),
];

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) markdownFiles(path, out);
    else if (name.endsWith(".md")) out.push(path);
  }
  return out;
}

/** Every head of the fixture skills and the heads above, each also with CRLF line ends; labelled for messages. */
export function headShapes(): { label: string; head: string }[] {
  const fromFiles = markdownFiles(SHAPES).flatMap((file) => {
    const { frontmatter } = splitFrontmatter(readFileSync(file, "utf8"));
    return frontmatter === undefined ? [] : [{ label: file.slice(SHAPES.length + 1), head: frontmatter }];
  });
  const written = WRITTEN.map((head, i) => ({ label: `written head ${i + 1}`, head: `${head}\n` }));
  const lf = [...fromFiles, ...written];
  return [
    ...lf,
    ...lf.map(({ label, head }) => ({ label: `${label} (CRLF)`, head: head.replaceAll("\n", "\r\n") })),
  ];
}
