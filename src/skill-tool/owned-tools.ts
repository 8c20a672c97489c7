import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { ShellOps } from "../io/shell.js";
import type { Skill } from "../skill/skill.js";
import type { CodeToolSpec, CommandToolSpec, SkillToolSpec } from "../skill/skill-tools.js";
import {
  defineTool,
  type Tool,
  type ToolInputSchema,
  type ToolOutput,
  toolError,
} from "../tools/define-tool.js";

/** How long a skill's command tool may run (as Bash's default). */
export const SKILL_COMMAND_TIMEOUT_MS = 120_000;

/** The result a call gets before its skill was loaded in the caller's conversation. Pure. */
export function notLoadedText(tool: string, skill: string): string {
  return `The tool ${tool} belongs to the skill "${skill}", which is not loaded in this conversation. Load it first with the Skill tool (skill: "${skill}"), then call ${tool} again.`;
}

const anyObject = () => z.object({}).catchall(z.unknown());

function commandTool(skill: Skill, spec: CommandToolSpec, shell: ShellOps | undefined): Tool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    // The skill's own JSON schema goes to the model; the API holds the model to it, so any object is taken.
    input: anyObject,
    inputSchema: spec.inputSchema as ToolInputSchema,
    readOnly: false,
    truncate: "tail",
    timeoutMs: SKILL_COMMAND_TIMEOUT_MS,
    async execute(input, ctx): Promise<ToolOutput> {
      if (shell === undefined || shell.refusal !== undefined) {
        return toolError(
          `${spec.name} runs a command, and this session has no shell${shell?.refusal === undefined ? "" : `: ${shell.refusal}`}`,
        );
      }
      if (skill.baseDir === "")
        return toolError(`${spec.name} runs a command, and its skill has no folder to run it in`);
      const result = await shell.run(spec.command, {
        cwd: skill.baseDir,
        input: JSON.stringify(input),
        signal: ctx.signal,
        timeoutMs: SKILL_COMMAND_TIMEOUT_MS,
        env: { CLAUDE_SKILL_DIR: skill.baseDir },
      });
      if (result.startError !== undefined)
        return toolError(`${spec.name} could not start: ${result.startError}`);
      const out = result.stdout.replace(/\n$/, "");
      if (result.exitCode === 0) return { content: out === "" ? `(${spec.name} printed nothing)` : out };
      const why = result.timedOut
        ? "timed out"
        : result.exitCode === undefined
          ? "was killed by a signal"
          : `exited with ${result.exitCode}`;
      const err = result.stderr.trim();
      return toolError(`${spec.name} ${why}${out === "" ? "" : `\n${out}`}${err === "" ? "" : `\n${err}`}`);
    },
  });
}

function codeTool(skill: Skill, spec: CodeToolSpec): Tool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    input: spec.input,
    readOnly: false,
    async execute(input, ctx): Promise<ToolOutput> {
      const output = await spec.execute(input, {
        cwd: skill.baseDir === "" ? ctx.cwd : skill.baseDir,
        signal: ctx.signal,
      });
      return typeof output === "string"
        ? { content: output }
        : { content: output.text, isError: output.isError === true };
    },
  });
}

function toolOf(skill: Skill, spec: SkillToolSpec, shell: ShellOps | undefined): Tool {
  return spec.kind === "command" ? commandTool(skill, spec, shell) : codeTool(skill, spec);
}

/**
 * The tools the skills at a session's open declare (`skill-tools:`, a memory skill's `tools`), each owned by its
 * skill and deferred: in the tools array from the first request (which never changes), revealed to models that
 * take deferred tools when the skill loads, callable once it did (the tool gate checks). A name that a tool in
 * `taken` or an earlier skill's tool has is left out with a `skill-tool-shadowed` warning. A command tool runs
 * with `shell` (none, or a refusing one: the call says so). Pure but for the tools' own runs.
 */
export function skillOwnedTools(input: {
  skills: readonly Skill[];
  taken: ReadonlySet<string>;
  shell?: ShellOps;
}): { tools: Tool[]; diagnostics: Diagnostic[] } {
  const tools: Tool[] = [];
  const diagnostics: Diagnostic[] = [];
  const owners = new Map<string, string>();
  for (const skill of input.skills) {
    for (const spec of skill.skillTools ?? []) {
      const clash = input.taken.has(spec.name) ? "a tool of the session" : owners.get(spec.name);
      if (clash !== undefined) {
        const by = input.taken.has(spec.name) ? clash : `the skill "${clash}"'s tool`;
        diagnostics.push(
          diagnostic(
            "warning",
            "skill-tool-shadowed",
            `skill-tools: ${spec.name} of the skill "${skill.name}" has the name of ${by}; it is left out`,
            skill.filePath === "" ? skill.name : skill.filePath,
          ),
        );
        continue;
      }
      owners.set(spec.name, skill.name);
      // A forked skill's tools are for its fork, whose opening is no tool result that could reveal them: sent whole.
      tools.push({
        ...toolOf(skill, spec, input.shell),
        owner: skill.name,
        deferLoading: skill.context !== "fork",
      });
    }
  }
  return { tools, diagnostics };
}
