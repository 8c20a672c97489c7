import type { Container } from "@anthropic-ai/sdk/resources/messages";
import type { ModelClient } from "../../agent/model-client.js";
import { ModelError } from "../../agent/model-error.js";
import type { ModelMessage, ModelToolSpec } from "../../agent/model-types.js";
import { ApiError, invalid } from "../errors.js";
import type { ServedSandboxChoice } from "../sessions/served-capabilities.js";
import { newId } from "../store/ids.js";
import type { Store } from "../store/store.js";
import { codeExecutionToolSpecs } from "./code-execution-tools.js";
import { CONTAINER_OUTPUTS, systemWithSkills } from "./container-layout.js";
import { resolveContainerSkills } from "./container-skills.js";
import type { MessageHead } from "./message-events.js";
import { type LoopEvent, type MessageLoopResult, runMessageLoop } from "./message-loop.js";
import { checkMessageParams, type MessageRequest } from "./message-params.js";
import { type ContainerLimits, type OpenContainer, openContainer } from "./open-container.js";
import { createOutputFiles } from "./output-files.js";
import { upstreamHistory } from "./upstream-history.js";

/** What the Messages route works with: the store, the upstream model, where code runs and the containers' limits. */
export interface MessagesDeps {
  store: Store;
  /** The upstream model; absent (no API key or base URL): every request is a 503 saying so. */
  client: ModelClient | undefined;
  /** Where containers' code runs: the operator's `serve --sandbox` tier (the host only with `--host-tools`). */
  sandbox: ServedSandboxChoice;
  limits: ContainerLimits;
}

/** A request checked and its container open, ready to run once (then `close`). */
export interface PreparedMessage {
  stream: boolean;
  head: MessageHead;
  /**
   * Runs the loop; `onEvent` hears the response as it is made. The container is held while it runs, released
   * (its lease renewed) at its end.
   */
  run(signal: AbortSignal, onEvent?: (event: LoopEvent) => Promise<void>): Promise<MessageLoopResult>;
  /** The container as the response's end names it (its lease renewed by the run). */
  container(): Container | null;
  /** Releases the container (when `run` did not) and its sandbox. */
  close(): Promise<void>;
}

/** The upstream model's failure as the route's error: a 500 (or the upstream's 429/529 kind) saying why. */
function upstreamError(error: unknown): unknown {
  if (!(error instanceof ModelError)) return error;
  const type =
    error.kind === "rate_limit"
      ? "rate_limit_error"
      : error.kind === "overloaded"
        ? "overloaded_error"
        : "api_error";
  return new ApiError(type, `the upstream model failed: ${error.message}`);
}

/** The request checked and its history translated, or the 400 that says why not. */
function checked(body: unknown): { request: MessageRequest; history: ModelMessage[] } {
  const params = checkMessageParams(body);
  if (params.kind === "refused") throw invalid(params.message);
  const history = upstreamHistory(params.request.messages);
  if (history.kind === "refused") throw invalid(history.message);
  return { request: params.request, history: history.messages };
}

/**
 * Prepares one `POST /v1/messages`: checks the body (400s), resolves `container.skills` in the workspace (404s,
 * Anthropic's own skills included), and opens the container it names or a new one (400 when expired). Without
 * the code execution tool it is a plain call of the upstream model: no container, `container: null`.
 */
export async function prepareMessage(
  deps: MessagesDeps,
  input: { workspaceId: string; body: unknown },
): Promise<PreparedMessage> {
  const { request, history } = checked(input.body);
  const client = deps.client;
  if (client === undefined) {
    throw new ApiError(
      "overloaded_error",
      "skillwright serve has no upstream model: start it with ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL) set",
    );
  }
  const { store, limits } = deps;
  let open: OpenContainer | undefined;
  let system = request.system;
  let tools: ModelToolSpec[] = [];
  let loaded: Container["skills"] = null;
  if (request.codeExecution !== undefined) {
    const skills = await resolveContainerSkills(
      { db: store.db, skills: store.skills, workspaceId: input.workspaceId },
      request.skills,
    );
    open = await openContainer({
      workspaceId: input.workspaceId,
      containerId: request.containerId,
      skills: skills.mounted,
      containers: store.containers,
      content: store.mounts,
      choice: deps.sandbox,
      limits,
    });
    system = systemWithSkills(system, skills.metadata);
    tools = codeExecutionToolSpecs({ cwd: open.cwd, outputs: CONTAINER_OUTPUTS });
    loaded = skills.loaded.length === 0 ? null : skills.loaded;
  }
  const container = open;
  let lease = container?.lease;
  let held = container !== undefined;
  /** Ends the request's hold on its container (once), renewing its lease. */
  const release = async () => {
    if (container === undefined || !held) return;
    held = false;
    lease = await store.containers.release(container.lease.id, limits.idleMs);
  };
  const named = (): Container | null =>
    lease === undefined ? null : { id: lease.id, expires_at: lease.expires_at, skills: loaded };
  return {
    stream: request.stream,
    head: { id: newId("msg"), model: request.model, container: named() },
    async run(signal, onEvent) {
      try {
        return await runMessageLoop({
          client,
          model: request.model,
          system,
          maxTokens: request.maxTokens,
          messages: history,
          tools,
          toolsContext:
            container === undefined
              ? undefined
              : {
                  sandbox: container.sandbox,
                  cwd: container.cwd,
                  outputs: createOutputFiles({
                    workspaceId: input.workspaceId,
                    containerId: container.lease.id,
                    files: container.files,
                    fileStore: store.files,
                  }),
                },
          signal,
          ...(onEvent === undefined ? {} : { onEvent }),
          ...(container === undefined
            ? {}
            : {
                keepAlive: async () => void (await store.containers.touch(container.lease.id, limits.idleMs)),
              }),
        });
      } catch (error) {
        throw upstreamError(error);
      } finally {
        // Released before the response ends, so a client that sends its next request on `message_stop` finds
        // the container free.
        await release();
      }
    },
    container: named,
    close: async () => {
      try {
        await release();
      } finally {
        await container?.close();
      }
    },
  };
}
