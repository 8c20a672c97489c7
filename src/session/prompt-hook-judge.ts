import type { ModelClient } from "../agent/model-client.js";
import type { PromptJudge } from "../hooks/run-prompt-hook.js";
import { resolveModel } from "../models.js";

/**
 * The session's judge for `type: prompt` hooks: one request on the session's model client, with no tools, to
 * the hook's `model` (an alias resolved) or else `sessionModel`; the answer's text blocks joined. Rejects as
 * the client does (the hook runner turns that into a warning).
 */
export function promptHookJudge(client: ModelClient, sessionModel: string): PromptJudge {
  return async (request, signal) => {
    const answer = await client.stream(
      {
        model: request.model === undefined ? sessionModel : resolveModel(request.model),
        system: request.system,
        messages: [{ role: "user", content: [{ type: "text", text: request.prompt }] }],
        tools: [],
        maxTokens: request.maxTokens,
      },
      { signal },
    );
    return answer.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  };
}
