import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import * as z from "zod";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorCode, type FsOps } from "../io/fs.js";
import type { McpServerConfig } from "./config-schema.js";

/**
 * One tool as a server listed it, kept so a session can offer it before the server runs: the fields the tool's
 * definition for the model is made from.
 */
export interface KnownMcpTool {
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  annotations?: { readOnlyHint?: boolean };
}

const knownTool = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.object({ type: z.literal("object") }).catchall(z.unknown()),
  annotations: z.object({ readOnlyHint: z.boolean().optional() }).optional(),
});

const fileSchema = z.object({
  version: z.literal(1),
  servers: z.record(
    z.string(),
    z.object({ server: z.string(), tools: z.array(knownTool), instructions: z.string().optional() }),
  ),
});

/** `~/.skillwright/mcp-tools.json` for a home dir, beside `approvals.json`. */
export function defaultToolListPath(home: string): string {
  return join(home, ".skillwright", "mcp-tools.json");
}

/**
 * The key a server's tool list is kept under: its name and a hash of its configuration, so a server whose command,
 * arguments, URL or environment changed counts as one that never ran. Pure.
 */
export function toolListKey(server: string, config: McpServerConfig): string {
  const hash = createHash("sha256").update(JSON.stringify(config)).digest("hex").slice(0, 16);
  return `${server}@${hash}`;
}

/** What a server said of itself when it last ran: its tools and the `instructions` it sent (if any). */
export interface KnownMcpServer {
  tools: KnownMcpTool[];
  instructions?: string;
}

/** The tool lists learned from servers that ran: read one, replace one. */
export interface ToolListStore {
  /** What is kept under `key`; undefined when nothing is (or the file is unreadable: the server is then started). */
  get(key: string): Promise<KnownMcpServer | undefined>;
  /** Keeps `known` under `key` (the file and its dir are created when missing; written atomically). */
  put(key: string, server: string, known: KnownMcpServer): Promise<void>;
}

/** The kept form of what a server said: its tools' kept fields, then its instructions. Pure. */
export function knownServerOf(known: KnownMcpServer): KnownMcpServer {
  return {
    tools: known.tools.map(knownToolOf),
    ...(known.instructions === undefined ? {} : { instructions: known.instructions }),
  };
}

/** The fields of a listed tool that are kept, in a fixed order (the same list serializes the same). Pure. */
export function knownToolOf(tool: KnownMcpTool): KnownMcpTool {
  return {
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(tool.annotations?.readOnlyHint === undefined
      ? {}
      : { annotations: { readOnlyHint: tool.annotations.readOnlyHint } }),
  };
}

/**
 * Tool lists in one JSON file (`{ version: 1, servers: { [key]: { server, tools } } }`). A file that is not one is
 * read as empty and left alone by `put` (which then rejects), so nothing the user wrote is lost.
 */
export function createFileToolListStore(options: { fs: FsOps; path: string }): ToolListStore {
  const { fs, path } = options;
  let queue: Promise<void> = Promise.resolve();
  const load = async (): Promise<{ servers: z.infer<typeof fileSchema>["servers"]; ok: boolean }> => {
    let text: string;
    try {
      text = await fs.readFile(path);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return { servers: {}, ok: true };
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { servers: {}, ok: false };
    }
    const parsed = fileSchema.safeParse(json);
    return parsed.success ? { servers: parsed.data.servers, ok: true } : { servers: {}, ok: false };
  };
  return {
    async get(key) {
      const entry = (await load().catch(() => undefined))?.servers[key];
      return entry === undefined ? undefined : knownServerOf(entry);
    },
    put(key, server, known) {
      const next = queue.then(async () => {
        const file = await load();
        if (!file.ok) throw new Error(`${path} is not a tool list file; not written (fix or remove it)`);
        const servers = { ...file.servers, [key]: { server, ...knownServerOf(known) } };
        const sorted = Object.fromEntries(
          Object.keys(servers)
            .sort()
            .map((k) => [k, servers[k]]),
        );
        await fs.mkdir(dirname(path));
        await writeFileAtomic(fs, path, `${JSON.stringify({ version: 1, servers: sorted }, null, 2)}\n`);
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** Tool lists kept in memory only (a host without a home of its own): each session learns them again. */
export function createMemoryToolListStore(): ToolListStore {
  const lists = new Map<string, KnownMcpServer>();
  return {
    get: async (key) => {
      const known = lists.get(key);
      return known === undefined ? undefined : knownServerOf(known);
    },
    put: async (key, _server, known) => void lists.set(key, knownServerOf(known)),
  };
}
