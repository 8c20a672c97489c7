import type { ModelClient } from "../agent/model-client.js";

/** The message for commands that need a model when no credentials are set. */
export const NO_KEY_MESSAGE =
  "skillwright: this command needs a model, and no API key is set.\n" +
  "Set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL to use another endpoint, e.g. `skillwright dev model-server`).\n" +
  "The offline commands work without one: list, doctor, show, validate.\n";

/** A model client from `ANTHROPIC_API_KEY` / `ANTHROPIC_AUTH_TOKEN` / `ANTHROPIC_BASE_URL`, or undefined without a key. */
export async function modelClientFromEnv(
  env: Record<string, string | undefined>,
): Promise<ModelClient | undefined> {
  const apiKey = env.ANTHROPIC_API_KEY;
  const authToken = env.ANTHROPIC_AUTH_TOKEN;
  if (!apiKey && !authToken) return undefined;
  const { createModelClient } = await import("../agent/model-client.js");
  return createModelClient({
    ...(apiKey ? { apiKey } : {}),
    ...(authToken ? { authToken } : {}),
    ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
  });
}
