import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { isRecord } from "../is-record.js";
import type { YamlParser } from "./frontmatter-core.js";
import type { SkillNeed } from "./skill-needs.js";

/** Where Codex's metadata sits beside a SKILL.md, relative to the skill's folder. */
export const OPENAI_YAML_PATH = "agents/openai.yaml";

/** What Codex shows of a skill (`interface` in `agents/openai.yaml`). */
export interface CodexInterface {
  displayName?: string;
  shortDescription?: string;
  defaultPrompt?: string;
}

/** What a skill's `agents/openai.yaml` says, as far as we act on it. */
export interface CodexMetadata {
  interface: CodexInterface;
  /** `policy.allow_implicit_invocation`: false means only a person's `/name` (or `$name`) runs it. */
  allowImplicitInvocation?: boolean;
  /** `dependencies.tools`: `type: mcp` (`value` the server) and `env_var` / `cli` (`value` the name). */
  needs: SkillNeed[];
}

/** The longest `interface.display_name` Codex keeps (as a skill name). */
export const MAX_DISPLAY_NAME_CHARS = 64;
/** The longest `interface.short_description` or `default_prompt` Codex keeps (as a description). */
export const MAX_INTERFACE_TEXT_CHARS = 1_024;

/** A string on one line, as Codex keeps it: whitespace runs become one space, ends trimmed; empty is none. */
function text(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const line = value
    .split(/\s+/)
    .filter((w) => w !== "")
    .join(" ");
  return line === "" ? undefined : line;
}

/**
 * Reads a skill's `agents/openai.yaml` (Codex's: `interface.display_name`, `short_description`,
 * `default_prompt`, each on one line and dropped over Codex's limits; `policy.allow_implicit_invocation`;
 * `dependencies.tools` entries `{type, value}`). Keys we
 * do not act on (icons, brand colour, a tool's transport and URL) are ignored. A file that is not YAML, or not a
 * mapping, or a value of the wrong type, is a `field-invalid` warning at `path` and the part is ignored. Pure.
 */
export function parseOpenaiYaml(
  source: string,
  path: string,
  yaml: YamlParser,
): { metadata?: CodexMetadata; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const warn = (message: string) => diagnostics.push(diagnostic("warning", "field-invalid", message, path));
  let data: unknown;
  try {
    const doc = yaml.parseDocument(source, { prettyErrors: false, logLevel: "error" });
    const error = doc.errors[0];
    if (error !== undefined) {
      warn(`agents/openai.yaml is not valid YAML (${error.message.split("\n")[0]}); ignored`);
      return { diagnostics };
    }
    data = doc.toJS();
  } catch (error) {
    warn(`agents/openai.yaml could not be read as YAML (${String(error)}); ignored`);
    return { diagnostics };
  }
  if (data === null || data === undefined) return { metadata: { interface: {}, needs: [] }, diagnostics };
  if (!isRecord(data)) {
    warn("agents/openai.yaml is not a mapping of keys; ignored");
    return { diagnostics };
  }
  const metadata: CodexMetadata = { interface: {}, needs: [] };
  const face = data.interface;
  if (isRecord(face)) {
    // A value over Codex's limit is dropped alone, as Codex drops it, and said.
    const limited = (key: string, max: number) => {
      const value = text(face[key]);
      if (value === undefined || [...value].length <= max) return value;
      warn(`interface.${key}: longer than ${max} characters; ignored`);
      return undefined;
    };
    const displayName = limited("display_name", MAX_DISPLAY_NAME_CHARS);
    const shortDescription = limited("short_description", MAX_INTERFACE_TEXT_CHARS);
    const defaultPrompt = limited("default_prompt", MAX_INTERFACE_TEXT_CHARS);
    if (displayName !== undefined) metadata.interface.displayName = displayName;
    if (shortDescription !== undefined) metadata.interface.shortDescription = shortDescription;
    if (defaultPrompt !== undefined) metadata.interface.defaultPrompt = defaultPrompt;
  } else if (face !== undefined) warn("interface: expected a mapping; ignored");
  const policy = data.policy;
  if (isRecord(policy)) {
    const allow = policy.allow_implicit_invocation;
    if (typeof allow === "boolean") metadata.allowImplicitInvocation = allow;
    else if (allow !== undefined) warn("policy.allow_implicit_invocation: expected true or false; ignored");
  } else if (policy !== undefined) warn("policy: expected a mapping; ignored");
  const dependencies = data.dependencies;
  const tools = isRecord(dependencies) ? dependencies.tools : undefined;
  if (Array.isArray(tools)) {
    for (const tool of tools) {
      const value = isRecord(tool) ? text(tool.value) : undefined;
      const type = isRecord(tool) ? tool.type : undefined;
      if (value === undefined) {
        warn("dependencies.tools: an entry without a value; ignored");
        continue;
      }
      if (type === "mcp") metadata.needs.push({ kind: "mcp", server: value });
      else if (type === "env_var" || type === "env") metadata.needs.push({ kind: "env", name: value });
      else if (type === "cli" || type === "command") metadata.needs.push({ kind: "command", name: value });
      else if (type === "skill") metadata.needs.push({ kind: "skill", name: value });
      else warn(`dependencies.tools: type ${JSON.stringify(type)} is not one we check; ignored`);
    }
  } else if (dependencies !== undefined && (!isRecord(dependencies) || tools !== undefined)) {
    warn("dependencies: expected a mapping with a tools list; ignored");
  }
  return { metadata, diagnostics };
}
