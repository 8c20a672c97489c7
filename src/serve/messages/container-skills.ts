import type { ContainerSkill } from "@anthropic-ai/sdk/resources/messages";
import { ApiError, invalid } from "../errors.js";
import type { MountedSkill } from "../sessions/mount-fs.js";
import type { SqlQuery } from "../store/driver.js";
import { filePaths } from "../store/skill-file-chunks.js";
import type { SkillStore } from "../store/skills.js";
import type { SkillMetadata } from "./container-layout.js";
import type { SkillRef } from "./message-params.js";

/** The skills of one request, resolved against the store: mounted, described to the model, named in the response. */
export interface ContainerSkills {
  mounted: MountedSkill[];
  metadata: SkillMetadata[];
  /** The response's `container.skills`: each with the version id it resolved to. */
  loaded: ContainerSkill[];
}

/** The 4xx for an Anthropic skill: serve stores no Anthropic skills and says what to do instead. */
function anthropicSkill(ref: SkillRef): ApiError {
  return new ApiError(
    "not_found_error",
    `container.skills: ${JSON.stringify(ref.skill_id)} is an Anthropic skill (type "anthropic"); skillwright serve ` +
      "has none of Anthropic's own skills: upload the skill's files with client.beta.skills.create and name it " +
      `with type "custom"`,
  );
}

/**
 * Resolves `refs` in the workspace: each custom skill at its version (`latest`, the default, resolves now, at
 * request time). Throws a 404 naming an Anthropic skill (none are served) or a skill or version the workspace
 * does not have, and a 400 for two skills of one name (their folders would clash). Files are read when asked.
 */
export async function resolveContainerSkills(
  deps: { db: SqlQuery; skills: SkillStore; workspaceId: string },
  refs: readonly SkillRef[],
): Promise<ContainerSkills> {
  const anthropic = refs.find((ref) => ref.type === "anthropic");
  if (anthropic !== undefined) throw anthropicSkill(anthropic);
  const found = await Promise.all(
    refs.map(async (ref) => {
      const version = await deps.skills.getVersion(deps.workspaceId, ref.skill_id, ref.version ?? "latest");
      return { ref, version, paths: await filePaths(deps.db, version.id) };
    }),
  );
  const names = new Set<string>();
  for (const { version } of found) {
    if (names.has(version.name))
      throw invalid(`container.skills: two skills are named ${JSON.stringify(version.name)}`);
    names.add(version.name);
  }
  return {
    mounted: found.map(({ version, paths }) => ({
      name: version.name,
      paths,
      read: async (path) => (paths.includes(path) ? deps.skills.file(version.id, path) : undefined),
    })),
    metadata: found.map(({ version }) => ({ name: version.name, description: version.description })),
    loaded: found.map(({ ref, version }) => ({
      type: "custom",
      skill_id: ref.skill_id,
      version: version.id,
    })),
  };
}
