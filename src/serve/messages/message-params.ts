import * as z from "zod";
import {
  SERVED_CODE_EXECUTION_VERSIONS,
  type ServedCodeExecutionVersion,
  UNSERVED_CODE_EXECUTION_VERSIONS,
} from "./code-execution-tools.js";

/** The most skills one container takes, as the Skills API allows. */
export const MAX_CONTAINER_SKILLS = 8;

/** A content block of a request message: parsed by its `type` when the history is translated. */
const Block = z.looseObject({ type: z.string().min(1) });
export type RequestBlock = z.infer<typeof Block>;

const Message = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.union([z.string(), z.array(Block)]),
});
export type RequestMessage = z.infer<typeof Message>;

const SkillRef = z.object({
  type: z.enum(["anthropic", "custom"]),
  skill_id: z.string().min(1),
  version: z.string().min(1).optional(),
});
export type SkillRef = z.infer<typeof SkillRef>;

const Container = z.union([
  z.string().min(1),
  z.object({
    id: z.string().min(1).nullable().optional(),
    skills: z.array(SkillRef).nullable().optional(),
  }),
]);

const Tool = z.looseObject({ type: z.string().optional(), name: z.string().optional() });

/** The body of `POST /v1/messages` as serve reads it (fields it does not act on are let through unread). */
export const MessageParams = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(Message).min(1),
  system: z
    .union([z.string(), z.array(z.looseObject({ type: z.literal("text"), text: z.string() }))])
    .optional(),
  tools: z.array(Tool).optional(),
  container: Container.nullable().optional(),
  stream: z.boolean().optional(),
});
export type MessageParams = z.infer<typeof MessageParams>;

/** A request ready to run: what the parameters name, checked. */
export interface MessageRequest {
  model: string;
  maxTokens: number;
  system: string;
  messages: readonly RequestMessage[];
  /** The code execution tool asked for, or undefined (then no container and no skills). */
  codeExecution: ServedCodeExecutionVersion | undefined;
  /** `container.id` (or the container given as a string): the container to reuse. */
  containerId: string | undefined;
  skills: readonly SkillRef[];
  stream: boolean;
}

/** A request checked: ready, or refused with the 400's message. */
export type CheckedRequest = { kind: "ok"; request: MessageRequest } | { kind: "refused"; message: string };

const served = (type: string): type is ServedCodeExecutionVersion =>
  (SERVED_CODE_EXECUTION_VERSIONS as readonly string[]).includes(type);

/** Why `tools` cannot be served, or the code execution version it asks for. Pure. */
function checkTools(
  tools: MessageParams["tools"],
): { kind: "ok"; version: ServedCodeExecutionVersion | undefined } | { kind: "refused"; message: string } {
  let version: ServedCodeExecutionVersion | undefined;
  const names = SERVED_CODE_EXECUTION_VERSIONS.join(" and ");
  for (const tool of tools ?? []) {
    const type = tool.type ?? "custom";
    if (served(type)) {
      if (version !== undefined)
        return { kind: "refused", message: "tools: the code execution tool is given twice" };
      if (tool.name !== "code_execution")
        return { kind: "refused", message: `tools: a ${type} tool is named "code_execution"` };
      version = type;
    } else if ((UNSERVED_CODE_EXECUTION_VERSIONS as readonly string[]).includes(type)) {
      return {
        kind: "refused",
        message: `tools: skillwright serve does not run the code execution tool version ${type}; it runs ${names}`,
      };
    } else {
      return {
        kind: "refused",
        message:
          `tools: skillwright serve's Messages route runs the code execution tool only (${names}); ` +
          `the tool ${JSON.stringify(tool.name ?? type)} of type ${type} is not served`,
      };
    }
  }
  return { kind: "ok", version };
}

/**
 * The request `body` asks for, checked: a 400's message for a body the SDK would not send, for tools other than
 * the served code execution versions, more than {@link MAX_CONTAINER_SKILLS} skills, or skills without the code
 * execution tool. Anthropic's own skills are checked later, against the store. Pure.
 */
export function checkMessageParams(body: unknown): CheckedRequest {
  const parsed = MessageParams.safeParse(body);
  if (!parsed.success) return { kind: "refused", message: z.prettifyError(parsed.error) };
  const params = parsed.data;
  const tools = checkTools(params.tools);
  if (tools.kind === "refused") return tools;
  const container = params.container ?? undefined;
  const containerId = typeof container === "string" ? container : (container?.id ?? undefined);
  const skills = typeof container === "object" ? (container.skills ?? []) : [];
  if (skills.length > MAX_CONTAINER_SKILLS) {
    return {
      kind: "refused",
      message: `container.skills: at most ${MAX_CONTAINER_SKILLS} skills per container; ${skills.length} were given`,
    };
  }
  if (tools.version === undefined && (skills.length > 0 || containerId !== undefined)) {
    return {
      kind: "refused",
      message: `container: skills and containers need the code execution tool in tools (${SERVED_CODE_EXECUTION_VERSIONS.join(" or ")})`,
    };
  }
  const system =
    typeof params.system === "string" ? params.system : (params.system ?? []).map((b) => b.text).join("\n\n");
  return {
    kind: "ok",
    request: {
      model: params.model,
      maxTokens: params.max_tokens,
      system,
      messages: params.messages,
      codeExecution: tools.version,
      containerId,
      skills,
      stream: params.stream ?? false,
    },
  };
}
