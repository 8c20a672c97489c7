// The slice of `@anthropic-ai/sdk` the model client uses, loaded lazily by `createModelClient`. The package
// root's `Anthropic` class builds every API resource (beta, organisation admin, files, skills, tracing: about
// 1 MB of JavaScript, ~20 ms to compile on each start); the base client plus the Messages resource is all a
// session needs, and the SDK marks itself side-effect free, so the bundle drops the rest.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk/core/error";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
import { createHttpFetch, type Fetch } from "./http-fetch.js";

/** The SDK's error classes `toModelError` tells apart, loaded with the client. */
export const SDK_ERRORS = { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError };

/** A client that speaks only the Messages API. */
export class MessagesClient extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
}

/** Options of {@link createMessagesClient}: the SDK client's, with `fetch` defaulting to node:http(s). */
export type MessagesClientOptions = ConstructorParameters<typeof BaseAnthropic>[0] & { fetch?: Fetch };

/** A {@link MessagesClient} whose requests go through `createHttpFetch` unless `options.fetch` is given. */
export function createMessagesClient(options: MessagesClientOptions): MessagesClient {
  return new MessagesClient({ ...options, fetch: options.fetch ?? createHttpFetch() });
}
