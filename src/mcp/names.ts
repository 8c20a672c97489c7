import { createHash } from "node:crypto";

/** Every MCP-derived name starts with this (SPEC §2, §12). */
export const MCP_PREFIX = "mcp__";

/** The separator between the server and the item in `mcp__{server}__{item}`. */
export const MCP_SEPARATOR = "__";

/** The longest name the Messages API accepts for a tool (and the longest name we give any MCP item). */
export const MAX_MCP_NAME_LENGTH = 64;

/** Hex chars of the hash suffix that keeps a shortened or colliding name unique. */
export const NAME_HASH_LENGTH = 8;

const INVALID_CHARS = /[^a-zA-Z0-9_-]/g;

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, NAME_HASH_LENGTH);
}

/** Replaces every char outside `[a-zA-Z0-9_-]` with `_`; an empty result becomes `_`. Pure. */
export function sanitizeNamePart(part: string): string {
  const clean = part.replace(INVALID_CHARS, "_");
  return clean === "" ? "_" : clean;
}

/**
 * A server name as it appears in `mcp__{server}__…`: sanitized, with runs of `_` collapsed so the name never
 * holds the `__` separator (permission rules like `mcp__server` split on it). Pure.
 */
export function sanitizeServerName(server: string): string {
  return sanitizeNamePart(server).replace(/_{2,}/g, "_");
}

/**
 * `mcp__{server}__{item}` with both parts sanitized, fitting `^[a-zA-Z0-9_-]{1,64}$`. A name that would be
 * longer is cut and ends in `_{hash}` of the full unsanitized pair, so it stays deterministic and distinct.
 */
export function mcpName(server: string, item: string): string {
  const full = `${MCP_PREFIX}${sanitizeServerName(server)}${MCP_SEPARATOR}${sanitizeNamePart(item)}`;
  if (full.length <= MAX_MCP_NAME_LENGTH) return full;
  const suffix = `_${shortHash(`${server}\u0000${item}`)}`;
  return `${full.slice(0, MAX_MCP_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** One item to name: the server it comes from and its own (raw) name. */
export interface NameRequest {
  server: string;
  item: string;
}

/**
 * Names for items, in input order: `mcpName(server, item)`, except that when two different items would get
 * the same name (`a.b` and `a_b`, or servers `x.y` and `x_y`), every one after the first ends in a `_{hash}`
 * of its raw server and item instead. Deterministic for the same input order. Pure.
 */
export function uniqueMcpNames(requests: readonly NameRequest[]): string[] {
  const taken = new Set<string>();
  return requests.map(({ server, item }) => {
    let name = mcpName(server, item);
    if (taken.has(name)) {
      const suffix = `_${shortHash(`${server}\u0000${item}`)}`;
      name = `${name.slice(0, MAX_MCP_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}

/** `items` paired with their `uniqueMcpNames`, in input order. Pure. */
export function withUniqueNames<T>(
  items: readonly T[],
  request: (item: T) => NameRequest,
): Array<{ item: T; name: string }> {
  const names = uniqueMcpNames(items.map(request));
  return items.map((item, i) => ({
    item,
    name: names[i] ?? mcpName(request(item).server, request(item).item),
  }));
}
