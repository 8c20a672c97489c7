import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { Skill as SkillEntry } from "@modelcontextprotocol/client/ext/skills";
import pLimit from "p-limit";
import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { parseFrontmatter } from "../skill/frontmatter.js";
import { splitFrontmatter } from "../skill/frontmatter-core.js";
import { MAX_SKILL_FILE_BYTES } from "../skill/load-skill.js";
import { firstBodyLine } from "../skill/schema.js";
import { entryLimitProblems } from "./entry-limits.js";

/** The capability key of the MCP Skills extension (SEP-2640). */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The index resource older skill servers publish (a JSON list of `{ name, description, uri }`). */
export const SKILL_INDEX_URI = "skill://index.json";

/** How many `SKILL.md` files of one server are read at once when their frontmatter is needed up front. */
export const SKILL_READ_CONCURRENCY = 4;

/** One skill a server offers, before it is named. */
export interface McpSkillRef {
  server: string;
  /** The URI of its `SKILL.md`. */
  uri: string;
  /** The path between `scheme://` and `/SKILL.md`: `greet`, `acme/billing/refunds`. */
  skillPath: string;
  /** The skill's root: the URI without `/SKILL.md` (its `Base directory`). */
  baseUri: string;
  /** Its frontmatter as published (`skills/list`) or as read from the file (index, resource listing). */
  frontmatter: Record<string, unknown>;
  /** The first body line, when the file was read (for the description fallback). */
  firstBodyLine?: string;
  /** The published size and digest of `SKILL.md` (`skills/list` only); the fetched text must match. */
  expected?: { digest: string; size: number };
  /** The `skills/list` entry as the server sent it (its manifest), for verified reads. */
  entry?: SkillEntry;
  via: "skills/list" | "index" | "resources";
}

/** How a server's skills were found: `skills/list`, the index resource, `resources/list`, or not at all. */
export type SkillDiscoveryPath = "skills/list" | "index" | "resources" | "none";

/** What discovery needs from one connected server. */
export interface SkillSourceOps {
  server: string;
  /** True when the server declared `SKILLS_EXTENSION` in its capabilities. */
  hasSkillsExtension: boolean;
  /** True when the server declared the `resources` capability. */
  hasResources: boolean;
  /** Every `skills/list` entry (all pages), unvalidated. */
  listSkillEntries(signal?: AbortSignal): Promise<unknown[]>;
  /** Every resource (all pages). */
  listResources(signal?: AbortSignal): Promise<Array<{ uri: string }>>;
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
}

const skillEntrySchema = lazy(() =>
  z.looseObject({
    uri: z.string(),
    frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
    resources: z.union([
      z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
      z.literal("dynamic"),
    ]),
  }),
);

const skillIndexSchema = lazy(() => {
  const entry = z.looseObject({ name: z.string().optional(), uri: z.string().optional() });
  return z.union([z.array(entry), z.looseObject({ skills: z.array(entry) })]);
});

const SKILL_URI = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.+)\/SKILL\.md$/;

/** Splits a `SKILL.md` URI into its skill path and root; undefined when it does not end in `/SKILL.md`. */
export function parseSkillUri(uri: string): { skillPath: string; baseUri: string } | undefined {
  const match = SKILL_URI.exec(uri);
  if (match === null) return undefined;
  return { skillPath: match[2] ?? "", baseUri: uri.slice(0, -"/SKILL.md".length) };
}

/** The text of a `resources/read` result for `uri`: its text, or its blob decoded as UTF-8. Throws if none. */
export function resourceText(result: ReadResourceResult, uri: string): string {
  const item = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (item === undefined) throw new Error(`${uri}: the server returned no content`);
  if ("text" in item && typeof item.text === "string") return item.text;
  if ("blob" in item && typeof item.blob === "string")
    return Buffer.from(item.blob, "base64").toString("utf8");
  throw new Error(`${uri}: the server returned no text`);
}

/** Reads a resource as text, refusing text over `MAX_SKILL_FILE_BYTES` (SPEC §1). */
export async function readSkillText(ops: SkillSourceOps, uri: string, signal?: AbortSignal): Promise<string> {
  const text = resourceText(await ops.readResource(uri, signal), uri);
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_SKILL_FILE_BYTES) {
    throw new Error(`${uri} is ${size} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit`);
  }
  return text;
}

async function fromSkillsList(ops: SkillSourceOps, signal: AbortSignal | undefined, out: Diagnostic[]) {
  const refs: McpSkillRef[] = [];
  for (const raw of await ops.listSkillEntries(signal)) {
    const entry = skillEntrySchema().safeParse(raw);
    const uri = typeof raw === "object" && raw !== null && "uri" in raw ? String(raw.uri) : "?";
    if (!entry.success) {
      out.push(warn(ops, `skills/list entry ${uri} is invalid (${entry.error.issues[0]?.message}); skipped`));
      continue;
    }
    const parts = parseSkillUri(entry.data.uri);
    if (parts === undefined) {
      out.push(warn(ops, `skills/list entry ${entry.data.uri} does not end in /SKILL.md; skipped`));
      continue;
    }
    const problems = entryLimitProblems(entry.data.frontmatter, parts.skillPath);
    if (problems.length > 0) {
      out.push(
        diagnostic(
          "error",
          "mcp-skill-refused",
          `MCP server "${ops.server}": skill ${entry.data.uri} refused: ${problems.join("; ")} (the MCP Skills extension's limits; it could never load)`,
          entry.data.uri,
        ),
      );
      continue;
    }
    const ref: McpSkillRef = {
      server: ops.server,
      uri: entry.data.uri,
      ...parts,
      frontmatter: entry.data.frontmatter,
      entry: entry.data,
      via: "skills/list",
    };
    const resources = entry.data.resources;
    const own = resources === "dynamic" ? undefined : resources.find((r) => r.uri === entry.data.uri);
    if (own !== undefined) ref.expected = { digest: own.digest, size: own.size };
    refs.push(ref);
  }
  return refs;
}

async function withFrontmatter(
  ops: SkillSourceOps,
  uris: readonly string[],
  via: "index" | "resources",
  signal: AbortSignal | undefined,
  out: Diagnostic[],
): Promise<McpSkillRef[]> {
  const limit = pLimit(SKILL_READ_CONCURRENCY);
  const read = await Promise.all(
    uris.map((uri) =>
      limit(async (): Promise<McpSkillRef | Diagnostic> => {
        const parts = parseSkillUri(uri);
        if (parts === undefined) return warn(ops, `skill ${uri} does not end in /SKILL.md; skipped`);
        let text: string;
        try {
          text = await readSkillText(ops, uri, signal);
        } catch (error) {
          return warn(ops, `could not read ${uri}: ${errorMessage(error)}`);
        }
        const split = splitFrontmatter(text);
        const data = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
        const ref: McpSkillRef = { server: ops.server, uri, ...parts, frontmatter: data, via };
        const first = firstBodyLine(split.body);
        if (first !== undefined) ref.firstBodyLine = first;
        return ref;
      }),
    ),
  );
  // Diagnostics in URI order, whatever order the reads finished in.
  for (const r of read) if ("code" in r) out.push(r);
  return read.filter((r): r is McpSkillRef => !("code" in r));
}

function warn(ops: SkillSourceOps, message: string): Diagnostic {
  return diagnostic("warning", "mcp-failed", `MCP server "${ops.server}": ${message}`);
}

/** The hint for a server that lists its skills in a form the engine does not read (a `skills://catalog`). */
function unreadCatalog(server: string, uri: string): Diagnostic {
  return diagnostic(
    "warning",
    "mcp-skills-unread",
    `MCP server "${server}" lists ${uri} but no skills the engine can read: it finds skills through the MCP Skills extension (the server declares ${SKILLS_EXTENSION} and answers skills/list), else a ${SKILL_INDEX_URI} resource, else skill://<name>/SKILL.md resources in resources/list`,
    uri,
  );
}

function unique(uris: readonly string[]): string[] {
  return [...new Set(uris)];
}

/**
 * Finds the skills a server offers (SEP-2640): `skills/list` when the server declared the extension (no file
 * is read); else the `skill://index.json` resource when the server lists it; else every listed resource
 * `skill://…/SKILL.md`. For the last two each `SKILL.md` is read once for its frontmatter. Never rejects: a
 * failing request is an `mcp-failed` warning and falls through to the next way; bad entries are skipped
 * with a warning.
 */
export async function discoverSkillRefs(
  ops: SkillSourceOps,
  signal?: AbortSignal,
): Promise<{ refs: McpSkillRef[]; diagnostics: Diagnostic[]; via: SkillDiscoveryPath }> {
  const diagnostics: Diagnostic[] = [];
  if (ops.hasSkillsExtension) {
    try {
      return { refs: await fromSkillsList(ops, signal, diagnostics), diagnostics, via: "skills/list" };
    } catch (error) {
      diagnostics.push(warn(ops, `skills/list failed: ${errorMessage(error)}`));
    }
  }
  if (!ops.hasResources) return { refs: [], diagnostics, via: "none" };
  let listed: Array<{ uri: string }>;
  try {
    listed = await ops.listResources(signal);
  } catch (error) {
    diagnostics.push(warn(ops, `resources/list failed: ${errorMessage(error)}`));
    return { refs: [], diagnostics, via: "none" };
  }
  if (listed.some((r) => r.uri === SKILL_INDEX_URI)) {
    try {
      const index = skillIndexSchema().safeParse(
        JSON.parse(resourceText(await ops.readResource(SKILL_INDEX_URI, signal), SKILL_INDEX_URI)),
      );
      if (!index.success) throw new Error(index.error.issues[0]?.message ?? "invalid index");
      const entries = Array.isArray(index.data) ? index.data : index.data.skills;
      const uris = entries
        .map((e) => e.uri ?? (e.name === undefined ? undefined : `skill://${e.name}/SKILL.md`))
        .filter((u): u is string => u !== undefined);
      const refs = await withFrontmatter(ops, unique(uris), "index", signal, diagnostics);
      return { refs, diagnostics, via: "index" };
    } catch (error) {
      diagnostics.push(
        warn(ops, `${SKILL_INDEX_URI} is unusable (${errorMessage(error)}); using resources/list`),
      );
    }
  }
  const uris = listed.map((r) => r.uri).filter((u) => u.startsWith("skill://") && u.endsWith("/SKILL.md"));
  const refs = await withFrontmatter(ops, unique(uris), "resources", signal, diagnostics);
  const catalog = refs.length === 0 ? listed.find((r) => r.uri.startsWith("skills://")) : undefined;
  if (catalog !== undefined) diagnostics.push(unreadCatalog(ops.server, catalog.uri));
  return { refs, diagnostics, via: "resources" };
}
