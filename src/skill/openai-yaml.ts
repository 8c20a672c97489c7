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

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * Reads a skill's `agents/openai.yaml` (Codex's: `interface.display_name`, `short_description`,
 * `default_prompt`; `policy.allow_implicit_invocation`; `dependencies.tools` entries `{type, value}`). Keys we
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
    const displayName = text(face.display_name);
    const shortDescription = text(face.short_description);
    const defaultPrompt = text(face.default_prompt);
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
