// Small helpers for tests that drive serve through the official SDK client.
import Anthropic from "@anthropic-ai/sdk";

/** Every item of an SDK page iterator (or any async iterable), in order. */
export async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The SDK error a call rejects with; fails when it succeeds or throws anything else. */
export async function apiError(call: Promise<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Anthropic.APIError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}
