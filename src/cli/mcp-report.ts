import type { McpServerEntry } from "../mcp/approval.js";
import type { McpServerStatus, McpServerSummary } from "../mcp/manager.js";

/**
 * One configured MCP server as `list --json` and `doctor --json` show it. `state`: `connected`, `failed`
 * (with `reason`), `not-started` (approved, but the command is offline: `--start-mcp` starts it),
 * `waiting-for-approval` (with `approve`: what approves it) or `disabled` (by `disabledBy`). With
 * `--start-mcp`, doctor adds what the server offers (`tools`, `prompts`, `resources`, `skills`, `skillsVia`).
 */
export interface McpServerReport extends Partial<Omit<McpServerSummary, "name" | "state">> {
  kind: "mcp-server";
  name: string;
  origin: McpServerEntry["origin"];
  source: string;
  /** The same as `source`, so that code reading every entry's `path` (as skill entries have) keeps working. */
  path: string;
  plugin?: string;
  state: "connected" | "failed" | "not-started" | "waiting-for-approval" | "disabled" | "closed";
  approvedBy?: string;
  disabledBy?: string;
  approve?: string;
}

/**
 * The report rows of every configured server, in config order. `live` holds the manager's view of the
 * approved servers when they were started (undefined for an offline command). Pure.
 */
export function mcpServerReports(
  entries: readonly McpServerEntry[],
  live: readonly (McpServerStatus | McpServerSummary)[] | undefined,
): McpServerReport[] {
  return entries.map((entry): McpServerReport => {
    const base = {
      kind: "mcp-server" as const,
      name: entry.name,
      origin: entry.origin,
      source: entry.source,
      path: entry.source,
      ...(entry.plugin === undefined ? {} : { plugin: entry.plugin }),
    };
    const { approval } = entry;
    if (approval.state === "pending") {
      return {
        ...base,
        state: "waiting-for-approval",
        approve: `skillwright mcp approve ${entry.name} (enabledMcpjsonServers in user or local settings)`,
      };
    }
    if (approval.state === "disabled") return { ...base, state: "disabled", disabledBy: approval.by };
    const seen = live?.find((s) => s.name === entry.name);
    if (seen === undefined || seen.state === "idle" || seen.state === "connecting") {
      return { ...base, state: "not-started", approvedBy: approval.by };
    }
    const { name: _name, state, ...rest } = seen;
    const details = "pid" in rest ? {} : rest;
    return { ...base, ...details, state, approvedBy: approval.by };
  });
}

/** One line per server for the human output of `list` and `doctor`. Pure. */
export function mcpServerLines(reports: readonly McpServerReport[]): string[] {
  return reports.map((r) => {
    const from = r.origin === "plugin" ? `plugin ${r.plugin ?? r.source}` : r.source;
    const head = `  ${r.name}  [${r.origin}] ${from}`;
    switch (r.state) {
      case "waiting-for-approval":
        return `${head}\n    waiting for approval: run \`skillwright mcp approve ${r.name}\` or add it to enabledMcpjsonServers in user or local settings`;
      case "disabled":
        return `${head}\n    disabled by disabledMcpjsonServers in ${r.disabledBy ?? "settings"}`;
      case "not-started":
        return `${head}\n    approved (${r.approvedBy ?? ""}); not started: this command is offline, --start-mcp starts it`;
      case "failed":
        return `${head}\n    failed: ${r.reason ?? "unknown reason"}`;
      default: {
        const offers =
          r.tools === undefined
            ? ""
            : r.onDemand === true
              ? `: ${r.tools} tools`
              : `: ${r.tools} tools, ${r.prompts ?? 0} prompts, ${r.resources ?? 0} resources, ${r.skills ?? 0} skills (via ${r.skillsVia ?? "none"})`;
        const version = r.protocolVersion === undefined ? "" : `, protocol ${r.protocolVersion}`;
        const when =
          r.onDemand === true ? "\n    only skills need it: a session starts it when one is invoked" : "";
        return `${head}\n    ${r.state}${version}${offers}${when}`;
      }
    }
  });
}
