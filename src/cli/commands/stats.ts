import { join } from "node:path";
import type { Engine } from "../../engine/engine.js";
import { errorMessage } from "../../io/fs.js";
import { contextUsageLines, skillContextUsage } from "../../session/skill-context/context-usage.js";
import { parseTranscript } from "../../session/transcript-store.js";
import type { SkillTrigger } from "../../skill/skill.js";
import { createFileUsageStore, defaultUsagePath, type UsageEntry } from "../../usage.js";
import type { CliIo } from "../io.js";

/** One skill's line of `skillwright stats`. */
export interface SkillStats {
  name: string;
  invocations: number;
  triggers: Partial<Record<SkillTrigger, number>>;
  lastUsedAt: string;
}

/** The skills in usage order (most invoked first, then most recent), from the usage entries. Pure. */
export function skillStats(usage: ReadonlyMap<string, UsageEntry>): SkillStats[] {
  return [...usage.entries()]
    .map(([name, entry]) => ({
      name,
      invocations: entry.count,
      triggers: entry.triggers ?? {},
      lastUsedAt: new Date(entry.lastUsedAt).toISOString(),
    }))
    .sort(
      (a, b) =>
        b.invocations - a.invocations ||
        b.lastUsedAt.localeCompare(a.lastUsedAt) ||
        a.name.localeCompare(b.name),
    );
}

const TRIGGER_ORDER: readonly SkillTrigger[] = ["user", "model", "nested"];

/** `user 2, model 5` (the triggers recorded; older records have none). Pure. */
function triggerText(triggers: Partial<Record<SkillTrigger, number>>): string {
  const parts = TRIGGER_ORDER.flatMap((t) => (triggers[t] === undefined ? [] : [`${t} ${triggers[t]}`]));
  return parts.length === 0 ? "-" : parts.join(", ");
}

/**
 * `skillwright stats [--json]`: per skill, how often it was invoked, by whom (a person's `/name`, the model, a
 * sub-agent's model) and when last, from the usage file (`~/.skillwright/usage.json`); then the skills found
 * now that were never invoked. Exit 0.
 */
export async function statsCommand(
  engine: Engine,
  io: CliIo,
  options: { json: boolean; session?: string | undefined },
): Promise<number> {
  if (options.session !== undefined) return sessionStats(engine, io, options.session, options.json);
  const usage = await createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) }).load();
  const stats = skillStats(usage);
  const { skills } = await engine.discover();
  const never = skills.map((s) => s.name).filter((name) => !usage.has(name));
  if (options.json) {
    io.stdout(`${JSON.stringify({ skills: stats, neverInvoked: never }, null, 2)}\n`);
    return 0;
  }
  if (stats.length === 0) io.stdout("No skill has been invoked yet.\n");
  else {
    const width = Math.max(5, ...stats.map((s) => s.name.length));
    io.stdout(`${"skill".padEnd(width)}  invocations  triggers              last used\n`);
    for (const s of stats) {
      io.stdout(
        `${s.name.padEnd(width)}  ${String(s.invocations).padStart(11)}  ${triggerText(s.triggers).padEnd(20)}  ${s.lastUsedAt.slice(0, 16).replace("T", " ")}\n`,
      );
    }
  }
  if (never.length > 0) io.stdout(`Never invoked (${never.length}): ${never.join(", ")}\n`);
  return 0;
}

/**
 * `skillwright stats --session ID [--json]`: what each skill costs that session's context now, read from its
 * transcript (`~/.skillwright/sessions/ID.jsonl`, read only) by the function `/context` and
 * `session.contextUsage()` use. Exit 1 when there is no such session.
 */
async function sessionStats(engine: Engine, io: CliIo, id: string, json: boolean): Promise<number> {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(id)) {
    io.stderr(`Not a session id: ${id}\n`);
    return 2;
  }
  const file = join(engine.home, ".skillwright", "sessions", `${id}.jsonl`);
  let text: string;
  try {
    text = await engine.fs.readFile(file);
  } catch (error) {
    io.stderr(`No session ${id} (${errorMessage(error)})\n`);
    return 1;
  }
  const usage = skillContextUsage(parseTranscript(text));
  io.stdout(
    json
      ? `${JSON.stringify({ session: id, ...usage }, null, 2)}\n`
      : `${contextUsageLines(usage).join("\n")}\n`,
  );
  return 0;
}
