// The slice of `@anthropic-ai/sdk` the model client uses, loaded lazily by `createModelClient`. The package
// root's `Anthropic` class builds every API resource (beta, organisation admin, files, skills, tracing: about
// 1 MB of JavaScript, ~20 ms to compile on each start); the base client plus the Messages resource is all a
// session needs, and the SDK marks itself side-effect free, so the bundle drops the rest.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";

export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk/core/error";
export { createHttpFetch, type Fetch } from "./http-fetch.js";

/** A client that speaks only the Messages API. */
export class MessagesClient extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
}
