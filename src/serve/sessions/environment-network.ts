import type { BetaEnvironment } from "@anthropic-ai/sdk/resources/beta/environments/environments";
import type { SandboxNetwork } from "../../sandbox/sandbox-network.js";

/**
 * The network a session's sandbox gets from its environment's config (absent: the environment is gone):
 * a `cloud` config's `networking` as the SDK types it, `unrestricted` or `limited` to its `allowed_hosts`
 * (`allow_package_managers` adds nothing, since the tier has no package manager; `allow_mcp_servers` concerns
 * the agent's MCP connections, which serve makes itself); a `self_hosted` config or none: no network.
 * `allowPrivateHosts` (`serve --sandbox-allow-host`) are the hosts a request may reach even on a loopback,
 * private or link-local address, in every mode. Pure.
 */
export function environmentNetwork(
  config: BetaEnvironment["config"] | undefined,
  allowPrivateHosts: readonly string[],
): SandboxNetwork {
  if (config === undefined || config.type !== "cloud") return { mode: "none" };
  const net = config.networking;
  if (net.type === "unrestricted") return { mode: "unrestricted", allowPrivateHosts };
  return { mode: "limited", allowedHosts: net.allowed_hosts, allowPrivateHosts };
}
