import { createHash } from "node:crypto";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { parseFrontmatter } from "../skill/frontmatter.js";
import { splitFrontmatter } from "../skill/frontmatter-core.js";
import { normalizeMeta } from "../skill/schema.js";
import type { Skill } from "../skill/skill.js";
import type { McpSkillRef } from "./skill-refs.js";

/** Reads a skill file's text from its server. */
export type ReadSkillText = (uri: string, signal?: AbortSignal) => Promise<string>;

/**
 * Reads a listed skill's `SKILL.md` through the MCP Skills extension's client, which checks its size, digest and
 * every frontmatter field against the skill's `skills/list` entry (refreshing a stale entry with `skills/get`
 * once); rejects when they do not match.
 */
export type ReadVerifiedSkill = (signal?: AbortSignal) => Promise<string>;

/**
 * Frontmatter keys never honoured for skills from MCP servers, with why: `hooks` would run commands on this
 * machine, and `allowed-tools` would let a server grant itself tools (SEP-2640 says to ignore it).
 */
export const MCP_IGNORED_FIELDS = {
  hooks: "they would run commands on this machine",
  "allowed-tools": "a server may not grant tools on this machine",
} as const;

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * The item name of each of one server's skills, in input order: the last segment of its skill path
 * (`acme/billing/refunds` → `refunds`), or the whole path when two skills share that segment (SEP-2640: names
 * are not unique, so they are told apart by path rather than one dropped). Pure.
 */
export function skillItemNames(refs: readonly Pick<McpSkillRef, "skillPath">[]): string[] {
  const counts = new Map<string, number>();
  for (const ref of refs) {
    const name = lastSegment(ref.skillPath);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return refs.map((ref) => {
    const name = lastSegment(ref.skillPath);
    return (counts.get(name) ?? 0) > 1 ? ref.skillPath : name;
  });
}

/** `sha256:{hex}` of the UTF-8 bytes of `text`. Pure. */
export function sha256Digest(text: string): string {
  return `sha256:${createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex")}`;
}

/**
 * Checks fetched text against the size and digest a `skills/list` entry published; undefined when it matches,
 * else why not. Pure.
 */
export function verifyPublished(
  text: string,
  expected: { digest: string; size: number },
): string | undefined {
  const size = Buffer.byteLength(text, "utf8");
  if (size !== expected.size) return `its size is ${size} bytes, the server published ${expected.size}`;
  if (!expected.digest.startsWith("sha256:")) return `its digest ${expected.digest} is not sha256`;
  const actual = sha256Digest(text);
  return actual === expected.digest.toLowerCase()
    ? undefined
    : `its digest is ${actual}, the server published ${expected.digest}`;
}

function sameField(published: unknown, read: unknown): boolean {
  return typeof published !== "string" || (typeof read === "string" && read.trim() === published.trim());
}

/**
 * An MCP skill as a model-invocable `Skill` named `name` (SPEC §12): meta from `normalizeMeta` on its
 * frontmatter, minus `name` (an MCP skill never gets an un-prefixed alias) and `MCP_IGNORED_FIELDS` (each a
 * warning); `baseDir` = the skill's root URI, `filePath` = its `SKILL.md` URI, `mcpServer` set, so inline
 * shell never runs. `loadBody` fetches `SKILL.md` and returns the text after the frontmatter: through
 * `readVerified` when given (skills listed by `skills/list`), else with `read`, rejecting text that does not
 * match the published size/digest or frontmatter name/description.
 */
export function refToSkill(options: {
  ref: McpSkillRef;
  name: string;
  read: ReadSkillText;
  readVerified?: ReadVerifiedSkill;
}): {
  skill: Skill;
  diagnostics: Diagnostic[];
} {
  const { ref, name, read, readVerified } = options;
  const data: Record<string, unknown> = { ...ref.frontmatter };
  delete data.name;
  const diagnostics: Diagnostic[] = [];
  for (const [field, why] of Object.entries(MCP_IGNORED_FIELDS)) {
    if (data[field] === undefined) continue;
    delete data[field];
    diagnostics.push(
      diagnostic(
        "warning",
        "field-invalid",
        `${field}: ignored in skills from MCP servers (${why})`,
        ref.uri,
      ),
    );
  }
  const normalized = normalizeMeta({
    data,
    kind: "skill",
    dirName: lastSegment(ref.skillPath),
    firstBodyLine: ref.firstBodyLine,
    path: ref.uri,
  });
  diagnostics.push(...normalized.diagnostics);
  const skill: Skill = {
    ...normalized.meta,
    name,
    source: "mcp",
    kind: "skill",
    filePath: ref.uri,
    baseDir: ref.baseUri,
    root: "",
    mcpServer: ref.server,
    async loadBody(signal) {
      if (readVerified !== undefined) return splitFrontmatter(await readVerified(signal)).body;
      const text = await read(ref.uri, signal);
      const problem = ref.expected === undefined ? undefined : verifyPublished(text, ref.expected);
      if (problem !== undefined) {
        throw new Error(`${ref.uri} from MCP server "${ref.server}" does not match its listing: ${problem}`);
      }
      const split = splitFrontmatter(text);
      if (ref.via === "skills/list") {
        const fm = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
        for (const key of ["name", "description"] as const) {
          if (!sameField(ref.frontmatter[key], fm[key])) {
            throw new Error(
              `${ref.uri} from MCP server "${ref.server}" does not match its listing: its ${key} differs`,
            );
          }
        }
      }
      return split.body;
    },
  };
  return { skill, diagnostics };
}
