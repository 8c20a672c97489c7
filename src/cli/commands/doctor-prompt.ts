import { ruleToolName } from "../../agent/turn-patch.js";
import type { Engine } from "../../engine/engine.js";
import { createNodeShell } from "../../io/shell.js";
import { assembleSessionPrompt } from "../../prompt/session-prompt.js";
import { describePromptParts } from "../../prompt/system-prompt.js";
import { createBuiltinTools } from "../../tools/builtin.js";
import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import { openingSkills } from "../listing-report.js";

/**
 * `skillwright doctor --prompt`: the system prompt a session opened with the same flags would get
 * (`--system-prompt`, `--append-system-prompt`, `--skill-listing`, `--disallowedTools`), each part headed by its
 * kind and origin (a file path, `option`, `built-in`, `tools`, `mcp`, `skills`); `--json` prints the parts and
 * the text. MCP instructions appear only with `--start-mcp`. The date is today's. Exit 0.
 */
export async function doctorPromptCommand(engine: Engine, io: CliIo, args: CliArgs): Promise<number> {
  const [{ projectDir, gitRoot }, extensions] = await Promise.all([engine.roots(), engine.extensions()]);
  const removed = new Set(args.disallowedTools.filter((r) => !r.includes("(")).map(ruleToolName));
  const builtins = createBuiltinTools({ fs: engine.fs, shell: createNodeShell(), homeDir: engine.home });
  const mcp = extensions.startMcp ? extensions.mcp : undefined;
  const tools = [...builtins, ...(mcp === undefined ? [] : await mcp.tools())].filter(
    (t) => !removed.has(t.name),
  );
  const prompt = await assembleSessionPrompt({
    fs: engine.fs,
    home: engine.home,
    projectDir,
    cwd: engine.cwd,
    gitRoot,
    platform: process.platform,
    date: new Date().toISOString().slice(0, 10),
    systemPrompt: args.systemPrompt,
    appendSystemPrompt: args.appendSystemPrompt,
    tools,
    mcpInstructions: mcp === undefined ? [] : await mcp.instructions(),
    systemListing: args.skillListing === "system" ? await openingSkills(engine) : undefined,
  });
  if (args.json) {
    const out = { parts: prompt.parts, text: prompt.text, diagnostics: prompt.diagnostics };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const warnings = prompt.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message} (${d.path ?? ""})`);
  io.stdout(`${[describePromptParts(prompt.parts), ...warnings].join("\n\n")}\n`);
  return 0;
}
