import type { CallToolResult, Client, Tool as McpTool, Prompt } from "@modelcontextprotocol/client";
import * as z from "zod";
import { SKILLS_EXTENSION, type SkillSourceOps } from "./skill-refs.js";

/** Most pages read from one paginated listing. */
export const MAX_LIST_PAGES = 100;

const ListSkillsResult = z.looseObject({ skills: z.array(z.unknown()), nextCursor: z.string().optional() });

/** Reads a paginated listing: pages until there is no `next` cursor, at most `MAX_LIST_PAGES`. */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_LIST_PAGES; i++) {
    const result = await page(cursor);
    items.push(...result.items);
    if (result.next === undefined || result.next === "") break;
    cursor = result.next;
  }
  return items;
}

/** A comparator on `key`: case-insensitive first, then case-sensitive, so the order is total. Pure. */
export function byName<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const [x, y] = [key(a), key(b)];
    const folded = x.toLowerCase().localeCompare(y.toLowerCase(), "en");
    return folded !== 0 ? folded : x < y ? -1 : x > y ? 1 : 0;
  };
}

const cursorParams = (cursor: string | undefined) => (cursor === undefined ? undefined : { cursor });

/** Every prompt of a server, sorted by name. */
export async function listAllPrompts(client: Client, timeout: number): Promise<Prompt[]> {
  const prompts = await allPages(async (cursor) => {
    const r = await client.listPrompts(cursorParams(cursor), { timeout });
    return { items: r.prompts, next: r.nextCursor };
  });
  return prompts.sort(byName((p: Prompt) => p.name));
}

/** Every tool of a server, sorted by name. */
export async function listAllTools(client: Client, timeout: number): Promise<McpTool[]> {
  const tools = await allPages(async (cursor) => {
    const r = await client.listTools(cursorParams(cursor), { timeout });
    return { items: r.tools, next: r.nextCursor };
  });
  return tools.sort(byName((t: McpTool) => t.name));
}

/**
 * Calls a tool and returns a standard `CallToolResult` (the client validates it, and turns an old-style
 * `toolResult` answer into content). Rejects on transport errors, timeouts, abort and a malformed result.
 */
export async function callTool(
  client: Client,
  request: { tool: string; args: Record<string, unknown>; signal: AbortSignal; timeout: number },
): Promise<CallToolResult> {
  return client.callTool(
    { name: request.tool, arguments: request.args },
    { signal: request.signal, timeout: request.timeout, resetTimeoutOnProgress: true },
  );
}

/**
 * What skill discovery needs from one server. `client` is asked for on every read, so that a server that
 * stopped makes reads fail with its reason (`use` throws) rather than hang.
 */
export function skillSourceOps(name: string, client: () => Client, timeout: number): SkillSourceOps {
  const caps = client().getServerCapabilities();
  return {
    server: name,
    hasSkillsExtension: caps?.extensions?.[SKILLS_EXTENSION] !== undefined,
    hasResources: caps?.resources !== undefined,
    listSkillEntries: (signal) =>
      allPages(async (cursor) => {
        const params = cursor === undefined ? {} : { cursor };
        const r = await client().request({ method: "skills/list", params }, ListSkillsResult, {
          timeout,
          signal,
        });
        return { items: r.skills, next: r.nextCursor };
      }),
    listResources: (signal) =>
      allPages(async (cursor) => {
        const r = await client().listResources(cursorParams(cursor), { timeout, signal });
        return { items: r.resources, next: r.nextCursor };
      }),
    readResource: (uri, signal) => client().readResource({ uri }, { timeout, signal }),
  };
}
