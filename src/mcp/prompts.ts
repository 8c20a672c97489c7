import type { GetPromptResult, Prompt, PromptArgument } from "@modelcontextprotocol/client";
import { neutralizeMarkup } from "../skill/neutralize-markup.js";
import type { Skill } from "../skill/skill.js";
import { contentBlockText } from "./content.js";

/** Fetches a prompt's messages from its server (`prompts/get`). */
export type GetPrompt = (
  prompt: string,
  args: Record<string, string>,
  signal: AbortSignal | undefined,
) => Promise<GetPromptResult>;

export type PromptArgsMapping =
  | { ok: true; values: Record<string, string> }
  | { ok: false; missing: string[] };

/**
 * Maps a typed args string onto a prompt's declared arguments (SPEC §12): split on whitespace, one word per
 * argument in order, extra words joined with spaces into the last argument. Arguments without a word are
 * left out; required ones among them are reported as `missing`. A prompt with no arguments ignores the
 * words. Pure.
 */
export function mapPromptArgs(args: string, declared: readonly PromptArgument[]): PromptArgsMapping {
  const words = args.split(/\s+/).filter((w) => w !== "");
  const values: Record<string, string> = {};
  declared.forEach((arg, i) => {
    const value = i === declared.length - 1 ? words.slice(i).join(" ") : words[i];
    if (value !== undefined && value !== "") values[arg.name] = value;
  });
  const missing = declared
    .filter((a) => a.required === true && values[a.name] === undefined)
    .map((a) => a.name);
  return missing.length > 0 ? { ok: false, missing } : { ok: true, values };
}

/** `<file> [focus]`: required arguments in angle brackets, optional ones in square brackets. Pure. */
export function promptArgumentHint(declared: readonly PromptArgument[]): string {
  return declared.map((a) => (a.required === true ? `<${a.name}>` : `[${a.name}]`)).join(" ");
}

/**
 * The text of a `prompts/get` result: each message's content as text, joined by blank lines, wrapper tags
 * defused (`neutralizeMarkup`). Pure.
 */
export function promptResultText(result: GetPromptResult): string {
  return neutralizeMarkup(
    result.messages
      .map((m) => contentBlockText(m.content))
      .filter((t) => t !== "")
      .join("\n\n"),
  );
}

/**
 * An MCP prompt as a user command (SPEC §12): `kind: "command"`, `source: "mcp"`, not model-invocable,
 * `literalBody` (no substitution, no inline shell). `loadBody(signal, args)` maps `args` with
 * `mapPromptArgs` and calls `getPrompt`; it rejects with `Missing required argument(s) … Usage: /{name} …`
 * when a required argument has no word, and with the server's error when the call fails.
 */
export function promptToSkill(options: {
  name: string;
  server: string;
  prompt: Prompt;
  getPrompt: GetPrompt;
}): Skill {
  const { name, server, prompt } = options;
  const declared = prompt.arguments ?? [];
  const written = neutralizeMarkup(
    (prompt.description ?? prompt.title ?? "").replace(/\s*\n\s*/g, " ").trim(),
  );
  const hint = promptArgumentHint(declared);
  const skill: Skill = {
    name,
    description: written === "" ? `Prompt ${prompt.name} from MCP server ${server}` : written,
    descriptionFromBody: written === "",
    argumentNames: declared.map((a) => a.name),
    allowedTools: [],
    disallowedTools: [],
    context: "inline",
    userInvocable: true,
    disableModelInvocation: true,
    shell: "bash",
    extra: {},
    source: "mcp",
    kind: "command",
    filePath: "",
    baseDir: "",
    root: "",
    mcpServer: server,
    literalBody: true,
    async loadBody(signal, args = "") {
      const mapped = mapPromptArgs(args, declared);
      if (!mapped.ok) {
        const plural = mapped.missing.length === 1 ? "argument" : "arguments";
        throw new Error(
          `Missing required ${plural} ${mapped.missing.join(", ")} for /${name}. Usage: /${name} ${hint}`,
        );
      }
      return promptResultText(await options.getPrompt(prompt.name, mapped.values, signal));
    },
  };
  if (hint !== "") skill.argumentHint = hint;
  return skill;
}
