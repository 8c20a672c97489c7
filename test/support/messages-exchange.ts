import { fileURLToPath } from "node:url";
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import type { ContentBlock, Message } from "@anthropic-ai/sdk/resources/messages";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { readTree } from "./tmp-tree.js";

// What the Messages API tests of serve share (issue #49): the scripted turns, the calc skill's upload and ways to
// read a response's blocks and an error's message.

/** The model the tests' requests name (the scripted server answers any). */
export const MODEL = "claude-sonnet-5-5";

/** The `tools` of a request with the code execution tool. */
export const CODE_EXECUTION = [{ type: "code_execution_20250825" as const, name: "code_execution" as const }];

/** The calc skill's folder: SKILL.md and scripts/calc.py. */
const CALC = fileURLToPath(new URL("../fixtures/sandbox-skills/calc", import.meta.url));

/** Uploads the calc skill through `client.beta.skills.create`; its id. */
export async function uploadCalc(client: Anthropic): Promise<string> {
  const files = await Promise.all(
    Object.entries(readTree(CALC)).map(([path, content]) => toFile(content, `calc/${path}`)),
  );
  return (await client.beta.skills.create({ files })).id;
}

/** A scripted turn calling one of the upstream tools, with the usage it reports. */
export function callTurn(
  name: string,
  input: Record<string, unknown>,
  match: ScriptTurnInput["match"],
  usage = { input_tokens: 100, output_tokens: 10 },
): ScriptTurnInput {
  return { match, response: { content: [{ type: "tool_use", name, input }], usage } };
}

/** A scripted turn answering with text, with the usage it reports. */
export function sayTurn(
  text: string,
  match: ScriptTurnInput["match"],
  usage = { input_tokens: 200, output_tokens: 20 },
): ScriptTurnInput {
  return { match, response: { content: [{ type: "text", text }], usage } };
}

/** The message of an API error's body (what the server said), or the error as text. */
export function said(error: unknown): string {
  if (error instanceof Anthropic.APIError) {
    const body = error.error as { error?: { message?: string } } | undefined;
    return body?.error?.message ?? error.message;
  }
  return String(error);
}

/** The blocks' types, in order. */
export const types = (blocks: readonly ContentBlock[]) => blocks.map((b) => b.type);

/** The first block of `type`, narrowed. */
export function blockOf<T extends ContentBlock["type"]>(
  message: Message,
  type: T,
): Extract<ContentBlock, { type: T }> {
  const found = message.content.find((b): b is Extract<ContentBlock, { type: T }> => b.type === type);
  if (found === undefined) throw new Error(`no ${type} block in ${JSON.stringify(message.content)}`);
  return found;
}

/** The stdout of the first shell result of `message` (throws when it has none, or an error in its place). */
export function bashStdout(message: Message): string {
  const result = blockOf(message, "bash_code_execution_tool_result");
  if (result.content.type !== "bash_code_execution_result") throw new Error(JSON.stringify(result.content));
  return result.content.stdout;
}
