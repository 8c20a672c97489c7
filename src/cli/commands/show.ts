import { capabilityText, gainText } from "../../approvals/capabilities.js";
import type { Engine } from "../../engine/engine.js";
import { expandSkill } from "../../inline/expand-skill.js";
import { skillExpansionText } from "../../inline/render.js";
import { errorMessage } from "../../io/fs.js";
import { createNodeShell } from "../../io/shell.js";
import type { McpManager } from "../../mcp/manager.js";
import { MCP_PREFIX, MCP_SEPARATOR, sanitizeServerName } from "../../mcp/names.js";
import { resourceText } from "../../mcp/skill-refs.js";
import { decide } from "../../permissions/decide.js";
import { parseFrontmatter } from "../../skill/frontmatter.js";
import { splitFrontmatter } from "../../skill/frontmatter-core.js";
import { answersTo, type Skill } from "../../skill/skill.js";
import { similarNames } from "../../skill-tool/did-you-mean.js";
import type { CliIo } from "../io.js";
import { type ApprovalReport, approvalReport, engineApprovals, gainsLine } from "../skill-approval.js";
import { skillToJson } from "../skill-json.js";

/** The session id `show` substitutes for `${CLAUDE_SESSION_ID}`. */
export const SHOW_SESSION_ID = "show-preview";

/**
 * The exact expansion of a skill for `args`, as the model would receive it. Inline shell runs only with
 * `runShell` (through the settings' deny rules; the user's flag answers an `ask`); otherwise its markers stay.
 */
async function expansionFor(engine: Engine, skill: Skill, args: string, runShell: boolean) {
  const { projectDir } = await engine.roots();
  const { rules } = (await engine.extensions()).permissions;
  const expandable: Skill = runShell
    ? skill
    : { ...skill, mcpServer: skill.mcpServer ?? "(show without --run-shell)" };
  const expanded = await expandSkill(expandable, {
    args,
    sessionId: SHOW_SESSION_ID,
    projectDir,
    shellOps: createNodeShell(),
    checkCommand: async (command) => {
      const decision = decide({
        rules,
        grants: skill.allowedTools,
        tool: "Bash",
        subject: { kind: "command", command },
        cwd: engine.cwd,
        home: engine.home,
      });
      return decision.behavior === "ask" ? { behavior: "allow", reason: "--run-shell" } : decision;
    },
  });
  return expanded.ok
    ? { ok: true as const, text: skillExpansionText(skill.kind, skill.baseDir, expanded.text) }
    : expanded;
}

export interface ShowOptions {
  json: boolean;
  runShell: boolean;
}

/**
 * `skillwright show <name> [args...]`: the frontmatter as parsed, the raw body and the exact expansion for
 * the args. Exit 1 for an unknown name or a failed expansion.
 */
export async function showCommand(
  engine: Engine,
  io: CliIo,
  name: string,
  args: string[],
  options: ShowOptions,
) {
  const wanted = name.replace(/^\//, "");
  const mcp = await mcpFor(engine, io, wanted);
  if (mcp === "refused") return 1;
  try {
    return await showFound(engine, io, { name, wanted, args, options, mcp });
  } finally {
    await mcp?.close();
  }
}

/**
 * For a name `mcp__{server}__…` of a configured server: that server alone, started because the user asked for
 * its skill (`show` starts nothing else; the other offline commands start nothing without `--start-mcp`).
 * `"refused"` (after telling the user) when the server waits for approval or is disabled; undefined for other
 * names and when discovery already started the servers (`--start-mcp`).
 */
async function mcpFor(
  engine: Engine,
  io: CliIo,
  wanted: string,
): Promise<McpManager | "refused" | undefined> {
  if (!wanted.startsWith(MCP_PREFIX)) return undefined;
  const extensions = await engine.extensions();
  if (extensions.startMcp) return undefined;
  const entry = extensions.mcpServers.find((e) =>
    wanted.startsWith(`${MCP_PREFIX}${sanitizeServerName(e.name)}${MCP_SEPARATOR}`),
  );
  if (entry === undefined) return undefined;
  if (entry.approval.state === "pending") {
    io.stderr(
      `${wanted}: MCP server "${entry.name}" (${entry.source}) waits for approval, so it was not started. Approve it with \`skillwright mcp approve ${entry.name}\`.\n`,
    );
    return "refused";
  }
  if (entry.approval.state === "disabled") {
    io.stderr(
      `${wanted}: MCP server "${entry.name}" is disabled by disabledMcpjsonServers in ${entry.approval.by}.\n`,
    );
    return "refused";
  }
  return extensions.mcpFor([entry.name]);
}

async function showFound(
  engine: Engine,
  io: CliIo,
  request: {
    name: string;
    wanted: string;
    args: string[];
    options: ShowOptions;
    mcp: McpManager | undefined;
  },
) {
  const { name, wanted, args, options, mcp } = request;
  const discovered = await engine.discover();
  const fromServer = mcp === undefined ? [] : [...(await mcp.prompts()), ...(await mcp.skills())];
  for (const d of mcp?.diagnostics() ?? []) io.stderr(`${d.severity} ${d.code}: ${d.message}\n`);
  const skills = [...discovered.skills, ...fromServer];
  // A skill's own name wins over another skill's alias.
  const skill = skills.find((s) => s.name === wanted) ?? skills.find((s) => answersTo(s, wanted));
  if (skill === undefined) {
    const similar = similarNames(
      wanted,
      skills.map((s) => s.name),
    );
    const hint = similar.length > 0 ? ` Did you mean ${similar.join(", ")}?` : "";
    io.stderr(`Unknown skill: ${name}.${hint} Run \`skillwright list\` to see the skills found.\n`);
    return 1;
  }
  let frontmatter: Record<string, unknown> = {};
  let body: string;
  const server = skill.mcpServer;
  if (skill.filePath === "") {
    // A code-defined or MCP prompt command: its text needs the args (a prompt maps them to its arguments).
    try {
      body = await skill.loadBody(undefined, args.join(" "));
    } catch (error) {
      io.stderr(`Could not get ${skill.name}: ${errorMessage(error)}\n`);
      return 1;
    }
  } else if (skill.source === "mcp" && server !== undefined) {
    // An MCP skill's file is a resource of its server (`skill://…/SKILL.md`), not a local path.
    const manager = mcp ?? (await engine.extensions()).mcp;
    try {
      body = await skill.loadBody();
      const text =
        manager === undefined
          ? ""
          : resourceText(await manager.readResource(server, skill.filePath), skill.filePath);
      const split = splitFrontmatter(text);
      frontmatter = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
    } catch (error) {
      io.stderr(
        `${skill.name}: could not fetch ${skill.filePath} from MCP server "${server}": ${errorMessage(error)}\n`,
      );
      return 1;
    }
  } else {
    const split = splitFrontmatter(await engine.fs.readFile(skill.filePath));
    frontmatter = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
    body = split.body;
  }
  const joined = args.join(" ");
  // A literal body (an MCP prompt's text) is sent as it is: no substitution, no inline shell.
  const expansion =
    skill.literalBody === true
      ? { ok: true as const, text: body }
      : await expansionFor(engine, skill, joined, options.runShell);
  const expansionText = expansion.ok ? expansion.text : expansion.message;
  const approval = await approvalReport(engineApprovals(engine), skill).catch((error: unknown) => {
    io.stderr(`${skill.name}: approvals could not be read: ${errorMessage(error)}\n`);
    return undefined;
  });
  if (options.json) {
    const record = {
      skill: skillToJson(skill),
      approval:
        approval === undefined
          ? null
          : {
              state: approval.state,
              capabilities: approval.capabilities.map(capabilityText),
              ...(approval.state === "held"
                ? { code: "skill-changed", gained: approval.gains.map(gainText) }
                : {}),
            },
      frontmatter,
      args: joined,
      body,
      expansion: expansion.ok ? expansion.text : null,
      error: expansion.ok ? null : expansion.message,
    };
    io.stdout(`${JSON.stringify(record, null, 2)}\n`);
    return expansion.ok ? 0 : 1;
  }
  const out = [
    `# ${skill.name} [${skill.source} ${skill.kind}]`,
    `path: ${skill.filePath === "" ? skill.baseDir : skill.filePath}`,
    ...codexLines(skill),
    "",
    "## Frontmatter (as parsed)",
    JSON.stringify(frontmatter, null, 2),
    "",
    ...(approval === undefined ? [] : approvalLines(approval)),
    "## Body",
    body,
    `## Expansion (args: ${joined === "" ? "none" : JSON.stringify(joined)}${options.runShell ? "" : "; inline shell not run, use --run-shell"})`,
    expansionText,
  ];
  io.stdout(`${out.join("\n")}\n`);
  return expansion.ok ? 0 : 1;
}

/** `show`'s lines for what a skill's `agents/openai.yaml` shows people (Codex's `interface`). Pure. */
export function codexLines(skill: Skill): string[] {
  const face = skill.codex;
  if (face === undefined) return [];
  return [
    ...(face.displayName === undefined ? [] : [`display name: ${face.displayName}`]),
    ...(face.shortDescription === undefined ? [] : [`short description: ${face.shortDescription}`]),
    ...(face.defaultPrompt === undefined ? [] : [`default prompt: ${face.defaultPrompt}`]),
  ];
}

const APPROVAL_STATE_TEXT: Record<ApprovalReport["state"], string> = {
  "not-needed": "not needed (a source you put there, or only safe properties)",
  unapproved: "not approved: asked before it runs (`skillwright approve` approves it)",
  approved: "approved; runs without asking while it gains no capability",
  held: "held (skill-changed)",
};

/** `show`'s approval section: where the skill stands, what it gained when held, and its capabilities. Pure. */
export function approvalLines(approval: ApprovalReport): string[] {
  const held = approval.state === "held" ? [`gained since approved: ${gainsLine(approval.gains)}`] : [];
  const can = approval.capabilities.map((c) => `- ${capabilityText(c)}`);
  return [
    "## Approval",
    APPROVAL_STATE_TEXT[approval.state],
    ...held,
    ...(can.length === 0 ? ["capabilities: none"] : ["capabilities:", ...can]),
    "",
  ];
}
