import type { AgentTool } from "../../src/agent/loop.js";

/**
 * A read-only tool that, once called, says so (`running` resolves with its signal) and then holds until that
 * signal aborts, answering `stopped`: a probe for who aborts a running call.
 */
export function abortWaitingTool(name: string): { tool: AgentTool; running: Promise<AbortSignal> } {
  let started: (signal: AbortSignal) => void = () => {};
  const running = new Promise<AbortSignal>((resolve) => {
    started = resolve;
  });
  const tool: AgentTool = {
    name,
    description: "Waits until its call is aborted.",
    inputSchema: { type: "object" },
    readOnly: true,
    subject: () => undefined,
    run: (_input, ctx) =>
      new Promise((resolve) => {
        const stopped = () =>
          resolve({ content: [{ type: "text", text: "stopped" }], isError: false, touchedPaths: [] });
        ctx.signal.addEventListener("abort", stopped, { once: true });
        started(ctx.signal);
      }),
  };
  return { tool, running };
}
