import type { Client } from "@modelcontextprotocol/client";
import {
  type Skill as SkillEntry,
  SkillsClient,
  SkillVerificationError,
} from "@modelcontextprotocol/client/ext/skills";
import { parseFrontmatter } from "../skill/frontmatter.js";

function fileText(file: { text?: string; bytes: Uint8Array }): string {
  return file.text ?? new TextDecoder().decode(file.bytes);
}

/**
 * Reads a skill's `SKILL.md` as SEP-2640 asks of a host: through the SDK's skills client, which checks the
 * bytes against the entry's size and sha256 digest and compares the frontmatter field by field with the
 * entry's. On a verification failure the entry may be stale: it is refreshed once with `skills/get` and the
 * file read again under the fresh entry; a second failure rejects (the content is never used unverified).
 */
export async function readListedSkill(
  client: Client,
  entry: SkillEntry,
  options: { timeout: number; signal?: AbortSignal | undefined },
): Promise<string> {
  const skills = new SkillsClient(client, { parseFrontmatter: (yaml) => parseFrontmatter(yaml).data });
  const request = { timeout: options.timeout, ...(options.signal ? { signal: options.signal } : {}) };
  const uri = entry.uri;
  try {
    return fileText(await skills.read(entry, undefined, request));
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    const fresh = await skills.get(uri, request);
    try {
      return fileText(await skills.read(fresh.skill, undefined, request));
    } catch (again) {
      if (again instanceof SkillVerificationError) {
        throw new Error(
          `${uri} failed verification against its skills/get entry (${again.reason}): ${again.message}`,
        );
      }
      throw again;
    }
  }
}
