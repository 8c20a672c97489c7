import type { ModelClient } from "../agent/model-client.js";
import { stringsIn } from "./session-checks.js";

/** What a metered client saw: each request (its agent and strings) and the usage its answers reported. */
export interface ClientMeter {
  requests: { agentId?: string | undefined; text: string }[];
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
}

/**
 * `client` with every request and the usage of every answer counted into the returned meter: how a baseline
 * run knows what a case cost, whichever model (scripted or real) answered.
 */
export function meteredClient(client: ModelClient): { client: ModelClient; meter: ClientMeter } {
  const meter: ClientMeter = { requests: [], inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 };
  return {
    meter,
    client: {
      async stream(request, options) {
        meter.requests.push({ agentId: options.agentId, text: stringsIn(request) });
        const message = await client.stream(request, options);
        meter.inputTokens += message.usage.input_tokens;
        meter.outputTokens += message.usage.output_tokens;
        meter.cacheReadTokens += message.usage.cache_read_input_tokens;
        return message;
      },
    },
  };
}
