import type { Client, ReadResourceResult } from "@modelcontextprotocol/client";
import {
  type Skill as SkillEntry,
  SkillsClient,
  SkillVerificationError,
} from "@modelcontextprotocol/client/ext/skills";
import { parseFrontmatter } from "../skill/frontmatter.js";
import type { McpSkillRef } from "./skill-refs.js";

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

/**
 * The listed skill of `server` whose directory holds `uri` (the deepest one, as skills may nest), when it
 * came with a file manifest (`resources` is an array); undefined otherwise. Pure.
 */
export function manifestOwner(
  refs: readonly McpSkillRef[],
  server: string,
  uri: string,
): McpSkillRef | undefined {
  let owner: McpSkillRef | undefined;
  for (const ref of refs) {
    if (ref.server !== server || ref.entry === undefined || ref.entry.resources === "dynamic") continue;
    if (!uri.startsWith(`${ref.baseUri}/`)) continue;
    if (owner === undefined || ref.baseUri.length > owner.baseUri.length) owner = ref;
  }
  return owner;
}

/**
 * Reads one file of a listed skill through the skills client, which refuses a file its manifest does not list
 * and checks the size and digest of one it does. Returns it as a `resources/read` result.
 */
export async function readSkillFile(
  client: Client,
  entry: SkillEntry,
  uri: string,
  options: { timeout: number; signal?: AbortSignal | undefined },
): Promise<ReadResourceResult> {
  const skills = new SkillsClient(client, { parseFrontmatter: (yaml) => parseFrontmatter(yaml).data });
  const request = { timeout: options.timeout, ...(options.signal ? { signal: options.signal } : {}) };
  try {
    const file = await skills.read(entry, uri, request);
    const mimeType = file.mimeType === undefined ? {} : { mimeType: file.mimeType };
    return file.text === undefined
      ? { contents: [{ uri, ...mimeType, blob: Buffer.from(file.bytes).toString("base64") }] }
      : { contents: [{ uri, ...mimeType, text: file.text }] };
  } catch (error) {
    if (error instanceof SkillVerificationError) {
      const why =
        error.reason === "unlisted"
          ? `it is not listed in the skill's manifest (skills/list entry ${entry.uri})`
          : `it does not match the skill's manifest (${error.reason})`;
      throw new Error(`${uri} was refused: ${why}`);
    }
    throw error;
  }
}
