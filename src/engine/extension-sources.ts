import type { SkillSource } from "../sources/skill-source.js";
import type { Extensions } from "./extensions.js";

/**
 * The plugins' skills and commands as a source, with what was wrong loading settings, plugins and MCP configs.
 * `extensions` is asked at each listing, so a reload's new plugins are listed.
 */
export function createPluginSource(extensions: () => Promise<Extensions>): SkillSource {
  return {
    id: "plugins",
    async list() {
      const loaded = await extensions();
      return { skills: loaded.plugins.flatMap((p) => p.skills), diagnostics: loaded.diagnostics };
    },
    subscribe: () => () => undefined,
  };
}

/** The MCP source and the function the MCP manager calls when a server's prompts or skills change. */
export interface McpSource {
  source: SkillSource;
  /** A server sent `list_changed`: tells the subscribers (the catalog rescans). */
  changed(): void;
}

/**
 * The approved MCP servers' prompts and skills as a source (starting the servers, unless `startMcp` is off; then
 * it lists nothing). A server's `list_changed` reaches the catalog through `changed`.
 */
export function createMcpSource(extensions: () => Promise<Extensions>): McpSource {
  const listeners = new Set<() => void>();
  return {
    source: {
      id: "mcp",
      async list() {
        const { mcp, startMcp } = await extensions();
        if (mcp === undefined || !startMcp) return { skills: [], diagnostics: [] };
        const [prompts, skills] = await Promise.all([mcp.prompts(), mcp.skills()]);
        return { skills: [...prompts, ...skills], diagnostics: mcp.diagnostics() };
      },
      subscribe(onChange) {
        listeners.add(onChange);
        return () => listeners.delete(onChange);
      },
    },
    changed() {
      for (const listener of listeners) listener();
    },
  };
}
