import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { ApiError, apiErrorFor, errorBody } from "../errors.js";
import { type MessagesDeps, prepareMessage } from "../messages/create-message.js";
import {
  endsBlock,
  loopEventEvents,
  messageEndEvents,
  messageOf,
  messageStartEvent,
} from "../messages/message-events.js";
import type { ServeEnv } from "./env.js";

/** The JSON body of a request, or a 400 when it is not JSON. */
async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new ApiError("invalid_request_error", "the body is not JSON");
  }
}

/**
 * `/v1/messages`: the SDK's `client.messages.create` and `client.beta.messages.create` (`?beta=true`), with
 * `container.skills` and the code execution tool run by serve itself (src/serve/messages/), JSON or, with
 * `stream: true`, server-sent events as the API streams them. Without `deps` (no model wired) every request is
 * a 503 saying so.
 */
export function messagesRoutes(deps: MessagesDeps | undefined): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.post("/", async (c) => {
    if (deps === undefined) {
      throw new ApiError(
        "overloaded_error",
        "this skillwright serve answers no Messages requests (no model is wired)",
      );
    }
    const body = await jsonBody(c.req.raw);
    const prepared = await prepareMessage(deps, { workspaceId: c.var.workspaceId, body });
    const abort = new AbortController();
    if (!prepared.stream) {
      try {
        const result = await prepared.run(c.req.raw.signal);
        const head = { ...prepared.head, model: result.model, container: prepared.container() };
        return c.json(messageOf(head, result.content, result.stopReason, result.usage));
      } finally {
        await prepared.close();
      }
    }
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => abort.abort());
      let index = 0;
      try {
        await stream.writeSSE({
          event: "message_start",
          data: JSON.stringify(messageStartEvent(prepared.head)),
        });
        const result = await prepared.run(abort.signal, async (loopEvent) => {
          for (const event of loopEventEvents(index, loopEvent)) {
            await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
          }
          if (endsBlock(loopEvent)) index++;
        });
        for (const event of messageEndEvents(prepared.container(), result.stopReason, result.usage)) {
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
        }
      } catch (error) {
        const api = apiErrorFor(error);
        if (!(error instanceof ApiError)) console.error(error);
        await stream.writeSSE({ event: "error", data: JSON.stringify(errorBody(api, c.get("requestId"))) });
      } finally {
        await prepared.close();
      }
    });
  });
  return app;
}
