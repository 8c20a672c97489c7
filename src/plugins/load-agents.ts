import { join } from "node:path";
import pLimit from "p-limit";
import type { AgentType } from "../agent-types/agent-types.js";
import { parseAgentFile } from "../agent-types/parse-agent-file.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { dirProblem } from "../discovery/scan-dir.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import { checkConfined } from "./confine.js";
import { type ComponentTarget, PLUGIN_FILE_CONCURRENCY } from "./load-skills.js";

/** Agent files larger than this are skipped with a diagnostic. */
export const MAX_AGENT_FILE_BYTES = 1_000_000;

/** Input of {@link loadPluginAgents}. */
export interface PluginAgentsInput {
  fs: FsOps;
  pluginName: string;
  /** Agent dirs (their `*.md` files, not recursive) or single `.md` files, defaults first. */
  targets: ComponentTarget[];
  /** The plugin root's real path: an agent file whose real path leaves it is refused (`plugin-path-escape`). */
  realRoot: string;
  signal?: AbortSignal;
}

/**
 * Loads a plugin's agent types, each named `{plugin}:{name}` with `source: "plugin"`, in target order (files of
 * a dir sorted by name). `hooks` and `permissionMode` are ignored for plugin agents (an `info` note each). The
 * same file twice loads once; a taken name is `shadowed` (first wins); a file whose real path leaves the plugin
 * root is refused (`plugin-path-escape`). Never throws for bad content.
 */
export async function loadPluginAgents(
  input: PluginAgentsInput,
): Promise<{ agents: AgentType[]; diagnostics: Diagnostic[] }> {
  const { fs } = input;
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];
  for (const target of input.targets) {
    for (const file of await agentFiles(fs, target, diagnostics)) {
      if (!files.includes(file)) files.push(file);
    }
  }
  input.signal?.throwIfAborted();
  const limit = pLimit(PLUGIN_FILE_CONCURRENCY);
  const parsed = await Promise.all(
    files.map((path) =>
      limit(async (): Promise<{ agent?: AgentType; diagnostics: Diagnostic[] }> => {
        const outside = await checkConfined(fs, path, input.realRoot);
        return outside === undefined ? readAgent(fs, path) : { diagnostics: [outside] };
      }),
    ),
  );
  const agents: AgentType[] = [];
  for (const result of parsed) {
    diagnostics.push(...result.diagnostics);
    const agent = result.agent;
    if (agent === undefined) continue;
    // As in Claude Code, a plugin's agents cannot bring hooks or change the permission mode (a plugin must not
    // widen what its agents may do without asking): those fields are ignored, with a note.
    const { hooks, permissionMode, ...kept } = agent;
    for (const [field, value] of [
      ["hooks", hooks],
      ["permissionMode", permissionMode],
    ] as const) {
      if (value === undefined) continue;
      diagnostics.push(
        diagnostic("info", "agent-invalid", `${field}: not supported for plugin agents; ignored`, agent.path),
      );
    }
    const named: AgentType = { ...kept, name: `${input.pluginName}:${agent.name}` };
    const winner = agents.find((a) => a.name === named.name);
    if (winner !== undefined) {
      diagnostics.push(
        diagnostic(
          "warning",
          "shadowed",
          `agent "${named.name}" at ${named.path ?? "?"} is shadowed by the agent at ${winner.path ?? "?"}`,
          named.path,
        ),
      );
      continue;
    }
    agents.push(named);
  }
  return { agents, diagnostics };
}

async function readAgent(fs: FsOps, path: string): Promise<{ agent?: AgentType; diagnostics: Diagnostic[] }> {
  try {
    const head = await fs.readHead(path, MAX_AGENT_FILE_BYTES);
    if (!head.complete) {
      return {
        diagnostics: [
          diagnostic(
            "error",
            "file-too-large",
            `${head.size} bytes is over the ${MAX_AGENT_FILE_BYTES}-byte limit; skipped`,
            path,
          ),
        ],
      };
    }
    return parseAgentFile(head.text, path, "plugin");
  } catch (error) {
    return { diagnostics: [diagnostic("warning", "file-unreadable", errorMessage(error), path)] };
  }
}

async function agentFiles(fs: FsOps, target: ComponentTarget, diagnostics: Diagnostic[]): Promise<string[]> {
  let kind: string;
  try {
    kind = (await fs.stat(target.path)).kind;
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") {
      if (target.required) {
        diagnostics.push(
          diagnostic(
            "warning",
            "plugin-invalid",
            "agents path from the manifest does not exist",
            target.path,
          ),
        );
      }
    } else {
      diagnostics.push(dirProblem(target.path, error));
    }
    return [];
  }
  if (kind === "file") {
    if (target.path.endsWith(".md")) return [target.path];
    diagnostics.push(diagnostic("warning", "plugin-invalid", "an agent file must end in .md", target.path));
    return [];
  }
  let entries: Awaited<ReturnType<FsOps["readdir"]>>;
  try {
    entries = await fs.readdir(target.path);
  } catch (error) {
    diagnostics.push(dirProblem(target.path, error));
    return [];
  }
  return entries
    .filter(
      (e) => e.name.endsWith(".md") && !e.name.startsWith(".") && (e.kind === "file" || e.kind === "symlink"),
    )
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => join(target.path, name));
}
