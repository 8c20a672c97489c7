import { capabilityText } from "../../approvals/capabilities.js";
import type { Engine } from "../../engine/engine.js";
import { errorMessage } from "../../io/fs.js";
import { answersTo, type Skill } from "../../skill/skill.js";
import { similarNames } from "../../skill-tool/did-you-mean.js";
import type { CliIo } from "../io.js";
import { type ApprovalReport, approvalReport, engineApprovals, gainsLine } from "../skill-approval.js";
import { usageLines } from "../usage.js";

/** The usage line of `approve`. */

/** Sources whose skills an approval pins; the others (managed, user, app, bundled) need none. */
const PINNED_SOURCES: ReadonlySet<Skill["source"]> = new Set(["project", "plugin", "mcp"]);

/** What was approved, as one line: the name, the source and what it may do (what it gained when it was held). */
function approvedLine(skill: Skill, before: ApprovalReport): string {
  const can =
    before.capabilities.length === 0 ? "no capabilities" : before.capabilities.map(capabilityText).join(", ");
  const gained =
    before.state === "held" ? ` (gained since the last approval: ${gainsLine(before.gains)})` : "";
  return `Approved ${skill.name} [${skill.source}]: ${can}${gained}\n`;
}

/**
 * `skillwright approve <skill...>` / `approve --all`: records in `~/.skillwright/approvals.json` the approval of
 * each named project, `--add-dir`, plugin or MCP skill as it is now (its content hash and capabilities), so it
 * runs without a question until it gains a capability. `--all` approves every such skill that waits (has
 * unsafe properties and no approval) or is held. A skill the user put there (user, managed, bundled) needs none
 * and is only reported. MCP skills are found only with `--start-mcp`. Exit 1 on an unknown name or when the
 * approvals file cannot be written (nothing half-written), 2 on a usage error.
 */
export async function approveCommand(
  engine: Engine,
  io: CliIo,
  names: readonly string[],
  options: { all: boolean },
): Promise<number> {
  if (options.all === names.length > 0) {
    io.stderr(usageLines("approve"));
    return 2;
  }
  const { skills } = await engine.discover();
  const approvals = engineApprovals(engine);
  const chosen: Skill[] = [];
  let code = 0;
  for (const raw of names) {
    const name = raw.replace(/^\//, "");
    const skill = skills.find((s) => s.name === name) ?? skills.find((s) => answersTo(s, name));
    if (skill !== undefined) {
      chosen.push(skill);
      continue;
    }
    const similar = similarNames(
      name,
      skills.map((s) => s.name),
    );
    const hint = similar.length > 0 ? ` Did you mean ${similar.join(", ")}?` : "";
    const mcp = name.startsWith("mcp__") ? " MCP skills are found with --start-mcp." : "";
    io.stderr(`Unknown skill: ${name}.${hint}${mcp}\n`);
    code = 1;
  }
  try {
    if (options.all) {
      let approved = 0;
      for (const skill of skills.filter((s) => PINNED_SOURCES.has(s.source))) {
        const before = await approvalReport(approvals, skill);
        if (before.state !== "unapproved" && before.state !== "held") continue;
        await approvals.approve(skill, await skill.loadBody().catch(() => ""));
        io.stdout(approvedLine(skill, before));
        approved++;
      }
      if (approved === 0) io.stdout("No skill waits for approval.\n");
      return code;
    }
    for (const skill of chosen) {
      if (!PINNED_SOURCES.has(skill.source)) {
        io.stdout(`${skill.name} [${skill.source}] needs no approval: you put it there.\n`);
        continue;
      }
      const before = await approvalReport(approvals, skill);
      await approvals.approve(
        skill,
        skill.literalBody === true ? "" : await skill.loadBody().catch(() => ""),
      );
      io.stdout(approvedLine(skill, before));
    }
  } catch (error) {
    io.stderr(`skillwright approve: ${errorMessage(error)}\n`);
    return 1;
  }
  return code;
}
