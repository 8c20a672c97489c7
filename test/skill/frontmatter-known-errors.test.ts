import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import {
  parseFrontmatterLazily,
  splitFrontmatter,
  type YamlParser,
} from "../../src/skill/frontmatter-core.js";
import {
  knownYamlError,
  NESTED_MAPPING_MESSAGE,
  OPEN_FLOW_LIST_MESSAGE,
} from "../../src/skill/frontmatter-known-errors.js";
import { CORPUS_DIR, itWithCorpus } from "../support/corpus.js";
import { seededRandom } from "../support/seeded-random.js";
import { headShapes } from "./head-shapes.js";

/** Generated heads per run (issue 12 asks for at least 100,000). `KNOWN_ERROR_HEADS` overrides. */
const GENERATED_HEADS = Number(process.env.KNOWN_ERROR_HEADS ?? 100_000);

/** The first line of `yaml`'s first error other than a duplicate key, as the engine reports it. */
function yamlFirstError(text: string): string | undefined {
  const doc = YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: "error" });
  return doc.errors.find((e) => e.code !== "DUPLICATE_KEY")?.message.split("\n")[0];
}

function skillFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) skillFiles(path, out);
    else if (name.endsWith(".md")) out.push(path);
  }
  return out;
}

const WORDS = [
  "Review",
  "code",
  "when",
  "a:b",
  "x",
  "http://h",
  "it's",
  '"q"',
  "[x]",
  "{y}",
  "#z",
  "-",
  "1.5",
];
const MORE = ["true", "é", "a,b", "*", "&", "!", "%", "@", "`", "|", ">", "?", ":", "a: b", "\t", "~", "]"];
const KEYS = ["name", "description", "when_to_use", "allowed-tools", "metadata", "x_y", "k", "null"];

/** A head with one of the known mistakes (or a near miss) among lines of every shape, some of them odd. */
function generateHead(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const word = () => (next() < 0.8 ? pick(WORDS) : pick(MORE));
  const line = () => {
    const r = next();
    const key = pick(KEYS);
    if (r < 0.3) return `${key}: ${word()} ${word()}`;
    if (r < 0.4) return `${key}: "${word()}: ${word()}"`;
    if (r < 0.5) return `${key}:\n  - ${word()}\n${pick(["  ", "", "    "])}- ${word()}`;
    if (r < 0.58) return `${key}:\n  ${pick(KEYS)}: ${word()}`;
    if (r < 0.66)
      return `${key}: ${pick(["|", ">", "|-"])}\n  ${word()}: ${word()}\n${pick(["  ", "", " "])}${word()}`;
    if (r < 0.72) return `${pick(["  ", " ", ""])}${word()} ${word()}`;
    if (r < 0.78) return `${key}: [${word()}, ${word()}${pick(["]", "", ",", "\n  x]"])}`;
    if (r < 0.82) return `# ${word()}`;
    if (r < 0.86) return pick(["", "   "]);
    if (r < 0.93) return `${key}: ${word()}: ${word()}`;
    return `- ${word()}`;
  };
  const mistake = () => {
    const key = pick(KEYS);
    if (next() < 0.5) {
      const before = pick(["deploys", "Use when", "x", "a b", "http://x", "it's", "é", "1", "-x", "a #b"]);
      return `${key}: ${before}:${pick([" ", "  ", ""])}${pick(["staging", "prod: y", "", "#c", "a: b", '"q"', "[x"])}`;
    }
    return `${key}: [${pick(["Read", "Read, Grep", "a b, c", "Bash(git *)", "", "'q'", "a:b", "{x"])}${pick(["", " ", ","])}`;
  };
  const lines: string[] = [];
  for (let n = Math.floor(next() * 5); n > 0; n -= 1) lines.push(line());
  lines.push(mistake());
  for (let n = Math.floor(next() * 4); n > 0; n -= 1) lines.push(next() < 0.2 ? mistake() : line());
  const head = `${lines.join("\n")}\n`;
  return next() < 0.1 ? head.replaceAll("\n", "\r\n") : head;
}

describe("knownYamlError gives yaml's own first error, or nothing", () => {
  it("on heads in the shapes real skill, command, agent and rule files have (LF and CRLF)", () => {
    let known = 0;
    const heads = headShapes();
    for (const { label, head } of heads) {
      const message = knownYamlError(head);
      if (message === undefined) continue;
      known += 1;
      expect({ label, message }).toEqual({ label, message: yamlFirstError(head) });
    }
    expect(heads.length).toBeGreaterThan(20);
    // The unquoted `: ` and the open flow list, each with LF and with CRLF.
    expect(known).toBe(4);
  });

  itWithCorpus("on every head of the real corpus", () => {
    let heads = 0;
    for (const file of skillFiles(CORPUS_DIR ?? "")) {
      const { frontmatter } = splitFrontmatter(readFileSync(file, "utf8"));
      if (frontmatter === undefined) continue;
      heads += 1;
      const known = knownYamlError(frontmatter);
      if (known !== undefined) expect({ file, known }).toEqual({ file, known: yamlFirstError(frontmatter) });
    }
    expect(heads).toBeGreaterThan(90);
  });

  it(`on ${GENERATED_HEADS.toLocaleString("en")} generated heads with mistakes and near misses (seeded)`, () => {
    const next = seededRandom(Number(process.env.KNOWN_ERROR_SEED ?? 20261125));
    let known = 0;
    for (let i = 0; i < GENERATED_HEADS; i += 1) {
      const head = generateHead(next);
      const message = knownYamlError(head);
      if (message === undefined) continue;
      known += 1;
      const reference = yamlFirstError(head);
      if (reference !== message) expect({ head, message, reference }).toBeUndefined();
    }
    // Near misses and odd lines before the mistake decline; a fair share must still be recognised.
    expect(known).toBeGreaterThan(GENERATED_HEADS / 8);
  });

  it.each([
    ["description: Deploys\nwhen_to_use: deploys: staging: prod\n", NESTED_MAPPING_MESSAGE],
    ["description: Use when: the user asks\nname: x\n", NESTED_MAPPING_MESSAGE],
    ['description: "Quoted"\nallowed-tools: [Read, Grep\n', OPEN_FLOW_LIST_MESSAGE],
    ["allowed-tools: [Read, Grep\nname: x\r\n", OPEN_FLOW_LIST_MESSAGE],
  ])("recognises %j", (head, message) => {
    expect(knownYamlError(head)).toBe(message);
    expect(yamlFirstError(head)).toBe(message);
  });

  it.each([
    // Valid YAML: a flow list may go on over indented lines.
    "allowed-tools: [Read,\n  Grep]\n",
    // `#` after a space starts a comment: no mistake.
    "description: a #b: c\n",
    // A line before it that the fast path does not read: yaml's first error might be another one.
    "hooks: {a: [b]}\ndescription: Use when: x\n",
    "description: Use when:\tx\n",
  ])("declines %j", (head) => {
    expect(knownYamlError(head)).toBeUndefined();
  });

  it("spares a discovery the yaml load: a known mistake reads leniently without it", async () => {
    let loads = 0;
    const loadYaml = async (): Promise<YamlParser> => {
      loads += 1;
      return YAML;
    };
    const parsed = await parseFrontmatterLazily("description: Use when: x\nname: y\n", loadYaml);
    expect(loads).toBe(0);
    expect(parsed).toEqual({
      data: { description: "Use when: x", name: "y" },
      mode: "lenient",
      yamlError: NESTED_MAPPING_MESSAGE,
    });
  });
});
