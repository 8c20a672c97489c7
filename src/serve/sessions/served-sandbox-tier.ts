/** The tiers `serve --sandbox` offers for sessions without `--host-tools`, the most confined first. */
export const SERVE_SANDBOX_TIERS = ["none", "simulated", "os"] as const;
export type ServeSandboxTier = (typeof SERVE_SANDBOX_TIERS)[number];

/** The tier served sessions run their code in when `serve --sandbox` is not given. */
export const DEFAULT_SERVE_SANDBOX: ServeSandboxTier = "simulated";

/** The tier named by `serve --sandbox NAME`, or undefined for a name serve does not offer. Pure. */
export function serveSandboxTier(name: string): ServeSandboxTier | undefined {
  return SERVE_SANDBOX_TIERS.find((tier) => tier === name);
}

/**
 * What serve's start-up line says of each tier: a table, not a switch, so that `skillwright -p`, whose argument
 * parser reads this file, loads nothing else for it (every tier must have its line: the type says so).
 */
const TIER_LINES: Readonly<Record<ServeSandboxTier, string>> = {
  none: "sessions run no code (--sandbox none): Bash, skills' inline shell and command hooks are refused",
  simulated:
    "sessions run code in the simulated sandbox (--sandbox simulated): bash and python3 in WebAssembly " +
    "over each session's own files, nothing on the host",
  os:
    "sessions run code in the OS sandbox (--sandbox os): this host's binaries under bubblewrap over a " +
    "private copy of each session's own files, the network its environment allows through a proxy, nothing " +
    "else of the host",
};

/**
 * The line `serve` prints at start-up saying where sessions run code: on the host with `--host-tools`; else, when
 * the default simulated sandbox is not installed (`simulatedMissing`, the line saying what to install), that it is
 * unavailable and sessions run no code; else in `tier`, and, when that is not `os`, why `os` is unavailable here
 * (`osUnavailable`, when it is). Pure.
 */
export function servedSandboxLine(
  hostTools: boolean,
  tier: ServeSandboxTier,
  osUnavailable?: string,
  simulatedMissing?: string,
): string {
  if (hostTools)
    return "sessions run code on this host (--host-tools): its files, binaries and network, unconfined";
  if (simulatedMissing !== undefined)
    return (
      `the simulated sandbox is unavailable: ${simulatedMissing}. Until then sessions run no code: Bash ` +
      "answers with this line, skills' inline shell and command hooks are refused"
    );
  const why =
    tier === "os" || osUnavailable === undefined
      ? ""
      : ` (--sandbox os is unavailable here: ${osUnavailable})`;
  return `${TIER_LINES[tier]}${why}`;
}
