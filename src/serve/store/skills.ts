import type { BetaSkill } from "@anthropic-ai/sdk/resources/beta/skills/skills";
import type { BetaSkillVersion } from "@anthropic-ai/sdk/resources/beta/skills/versions";
import { invalid, notFound } from "../errors.js";
import type { SqlDriver, SqlQuery, SqlRow } from "./driver.js";
import { newId } from "./ids.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import type { PostingsUpkeep } from "./postings-upkeep.js";
import { iso, num, text } from "./rows.js";
import { dropStagedChunks, filePaths, readFileChunks, stageChunks } from "./skill-file-chunks.js";
import { agentsUsingSkill, skillInUse } from "./skill-references.js";
import { searchStoredSkills } from "./skill-search.js";
import type { SkillFile, SkillUpload } from "./skill-upload.js";

const MAX_DISPLAY_NAME = 255;

/** The columns {@link skillOf} reads, and `seq` for pages and `name` for new versions. */
const SKILL_COLUMNS = "id, seq, name, display_name, latest_version_id, created_at, updated_at";

/**
 * A version of a skill in a workspace, `$3` being a version id or `latest`: no row when the skill is not
 * there, a row with a null `id` when the skill is there but not the version.
 */
const VERSION_OF_SKILL = `SELECT v.id, v.skill_id, v.name, v.description, v.created_at
  FROM skills s
  LEFT JOIN skill_versions v
    ON v.skill_id = s.id AND v.id = (CASE WHEN $3::text = 'latest' THEN s.latest_version_id ELSE $3::text END)
  WHERE s.id = $1 AND s.workspace_id = $2`;

function skillOf(row: SqlRow): BetaSkill {
  return {
    id: text(row, "id"),
    type: "skill",
    display_name: text(row, "display_name"),
    latest_version_id: text(row, "latest_version_id"),
    source: { type: "custom" },
    created_at: iso(row, "created_at"),
    updated_at: iso(row, "updated_at"),
  };
}

function versionOf(row: SqlRow): BetaSkillVersion {
  return {
    id: text(row, "id"),
    type: "skill_version",
    skill_id: text(row, "skill_id"),
    name: text(row, "name"),
    description: text(row, "description"),
    created_at: iso(row, "created_at"),
  };
}

function checkDisplayName(displayName: string): string {
  const trimmed = displayName.trim();
  if (trimmed === "" || trimmed.length > MAX_DISPLAY_NAME || /[\r\n]/.test(trimmed)) {
    throw invalid(`display_name must be one line of 1 to ${MAX_DISPLAY_NAME} characters`);
  }
  return trimmed;
}

/** Inserts the version row and its `skill_files` rows; the bytes are staged already (see `stageChunks`). */
async function insertVersion(
  tx: SqlQuery,
  versionId: string,
  skillId: string,
  upload: SkillUpload,
): Promise<void> {
  await tx.query(
    "INSERT INTO skill_versions (id, skill_id, name, description, head) VALUES ($1, $2, $3, $4, $5::jsonb)",
    [versionId, skillId, upload.name, upload.description, JSON.stringify(upload.head)],
  );
  await tx.query(
    "INSERT INTO skill_files (version_id, path) SELECT $1, p FROM jsonb_array_elements_text($2::jsonb) AS p",
    [versionId, JSON.stringify(upload.files.map((f) => f.path))],
  );
}

/**
 * Stores a new version: its bytes staged first in small statements (see `stageChunks`), then `write` in one
 * short transaction that inserts the version's rows; when staging or `write` fails, the staged bytes are
 * dropped and the error is thrown on.
 */
async function withStagedFiles<T>(
  db: SqlDriver,
  upload: SkillUpload,
  write: (tx: SqlQuery, versionId: string) => Promise<T>,
): Promise<T> {
  const versionId = newId("skillver");
  try {
    await stageChunks(db, versionId, upload.files);
    return await db.transaction((tx) => write(tx, versionId));
  } catch (error) {
    await dropStagedChunks(db, versionId);
    throw error;
  }
}

function checkSameName(skill: SqlRow, upload: SkillUpload): void {
  if (text(skill, "name") !== upload.name) {
    throw invalid(
      `SKILL.md name ${JSON.stringify(upload.name)} does not match this skill's name ${JSON.stringify(text(skill, "name"))}: every version of a skill keeps its name`,
    );
  }
}

/** Skills and their immutable versions, per workspace. */
export interface SkillStore {
  create(workspaceId: string, upload: SkillUpload, displayName?: string): Promise<BetaSkill>;
  get(workspaceId: string, skillId: string): Promise<BetaSkill>;
  list(workspaceId: string, page: PageRequest): Promise<Page<BetaSkill>>;
  /**
   * The workspace's skills that match `query` best first (`searchStoredSkills`: their latest versions' name,
   * description, when_to_use and argument hint), at most `limit`; none for a query of stop words only.
   */
  search(workspaceId: string, query: string, limit: number): Promise<BetaSkill[]>;
  /** Deletes the skill and its versions; a 409 naming the agents whose current version lists it. */
  delete(workspaceId: string, skillId: string): Promise<void>;
  addVersion(workspaceId: string, skillId: string, upload: SkillUpload): Promise<BetaSkillVersion>;
  /** `version` is a version id or `latest`. */
  getVersion(workspaceId: string, skillId: string, version: string): Promise<BetaSkillVersion>;
  listVersions(workspaceId: string, skillId: string, page: PageRequest): Promise<Page<BetaSkillVersion>>;
  /** Deletes one version (not the only one); a 409 naming the agents whose current version pins it. */
  deleteVersion(workspaceId: string, skillId: string, version: string): Promise<BetaSkillVersion>;
  /** Every file of a version, in path order. */
  files(versionId: string): Promise<SkillFile[]>;
  /** One file's bytes, or undefined when the version has no such file. */
  file(versionId: string, path: string): Promise<Uint8Array | undefined>;
}

/**
 * The skill store over `db`. Every write is one transaction: nothing is half-written (a version's bytes are
 * staged before its transaction and dropped when it fails). `upkeep` hears of each committed write.
 */
export function createSkillStore(db: SqlDriver, upkeep: PostingsUpkeep): SkillStore {
  /** `write`'s result, once `upkeep` has heard of it (a failed write is not counted). */
  const counted = async <T>(write: Promise<T>): Promise<T> => {
    const result = await write;
    await upkeep.wrote();
    return result;
  };
  const getRow = async (q: SqlQuery, workspaceId: string, skillId: string): Promise<SqlRow> => {
    const [row] = await q.query(`SELECT ${SKILL_COLUMNS} FROM skills WHERE id = $1 AND workspace_id = $2`, [
      skillId,
      workspaceId,
    ]);
    if (row === undefined) throw notFound("skill", skillId);
    return row;
  };
  // One statement: the skill (in this workspace) and the version, `latest` resolved in the database.
  const getVersionRow = async (
    q: SqlQuery,
    workspaceId: string,
    skillId: string,
    version: string,
  ): Promise<SqlRow> => {
    const [row] = await q.query(VERSION_OF_SKILL, [skillId, workspaceId, version]);
    if (row === undefined) throw notFound("skill", skillId);
    if (row.id === null || row.id === undefined) throw notFound(`version of skill ${skillId}`, version);
    return row;
  };
  return {
    async create(workspaceId, upload, displayName) {
      const label = checkDisplayName(displayName ?? upload.name);
      return counted(
        withStagedFiles(db, upload, async (tx, versionId) => {
          const skillId = newId("skill");
          await tx.query(
            "INSERT INTO skills (id, workspace_id, name, display_name) VALUES ($1, $2, $3, $4)",
            [skillId, workspaceId, upload.name, label],
          );
          await insertVersion(tx, versionId, skillId, upload);
          await tx.query("UPDATE skills SET latest_version_id = $1 WHERE id = $2", [versionId, skillId]);
          return skillOf(await getRow(tx, workspaceId, skillId));
        }),
      );
    },
    async get(workspaceId, skillId) {
      return skillOf(await getRow(db, workspaceId, skillId));
    },
    async list(workspaceId, page) {
      const rows = await db.query(
        `SELECT ${SKILL_COLUMNS} FROM skills WHERE workspace_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
        [workspaceId, page.after ?? null, page.limit + 1],
      );
      return toPage(
        rows.map((row) => ({ item: skillOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async search(workspaceId, query, limit) {
      const matches = await searchStoredSkills(db, workspaceId, query, { limit });
      if (matches.length === 0) return [];
      const rows = await db.query(
        `SELECT ${SKILL_COLUMNS} FROM skills WHERE workspace_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
        [workspaceId, JSON.stringify(matches.map((m) => m.id))],
      );
      const byId = new Map(rows.map((row) => [text(row, "id"), row]));
      // In rank order; a skill deleted between the two statements is left out.
      return matches.flatMap((m) => {
        const row = byId.get(m.id);
        return row === undefined ? [] : [skillOf(row)];
      });
    },
    async delete(workspaceId, skillId) {
      await counted(
        db.transaction(async (tx) => {
          // Locked first: an agent being saved with this skill waits, and is then seen or refused.
          const [row] = await tx.query(
            "SELECT id FROM skills WHERE id = $1 AND workspace_id = $2 FOR UPDATE",
            [skillId, workspaceId],
          );
          if (row === undefined) throw notFound("skill", skillId);
          const users = await agentsUsingSkill(tx, workspaceId, skillId);
          if (users.length > 0) throw skillInUse(`skill ${skillId}`, users);
          await tx.query("DELETE FROM skills WHERE id = $1", [skillId]);
        }),
      );
    },
    async addVersion(workspaceId, skillId, upload) {
      // Checked before the bytes are staged too (the transaction checks again under the row lock).
      const current = await getRow(db, workspaceId, skillId);
      checkSameName(current, upload);
      return counted(
        withStagedFiles(db, upload, async (tx, versionId) => {
          // Locks the skill row: two uploads at once get versions in one order and one `latest`.
          const [skill] = await tx.query(
            `SELECT ${SKILL_COLUMNS} FROM skills WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
            [skillId, workspaceId],
          );
          if (skill === undefined) throw notFound("skill", skillId);
          checkSameName(skill, upload);
          await insertVersion(tx, versionId, skillId, upload);
          await tx.query("UPDATE skills SET latest_version_id = $1, updated_at = now() WHERE id = $2", [
            versionId,
            skillId,
          ]);
          return versionOf(await getVersionRow(tx, workspaceId, skillId, versionId));
        }),
      );
    },
    async getVersion(workspaceId, skillId, version) {
      return versionOf(await getVersionRow(db, workspaceId, skillId, version));
    },
    async listVersions(workspaceId, skillId, page) {
      await getRow(db, workspaceId, skillId);
      const rows = await db.query(
        "SELECT id, seq, skill_id, name, description, created_at FROM skill_versions WHERE skill_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3",
        [skillId, page.after ?? null, page.limit + 1],
      );
      return toPage(
        rows.map((row) => ({ item: versionOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async deleteVersion(workspaceId, skillId, version) {
      return counted(
        db.transaction(async (tx) => {
          await tx.query("SELECT id FROM skills WHERE id = $1 FOR UPDATE", [skillId]);
          const row = await getVersionRow(tx, workspaceId, skillId, version);
          const users = await agentsUsingSkill(tx, workspaceId, skillId, text(row, "id"));
          if (users.length > 0) throw skillInUse(`version ${text(row, "id")} of skill ${skillId}`, users);
          const [count] = await tx.query("SELECT count(*) AS n FROM skill_versions WHERE skill_id = $1", [
            skillId,
          ]);
          if (count !== undefined && num(count, "n") <= 1) {
            throw invalid(
              `version ${text(row, "id")} is the only version of skill ${skillId}; delete the skill instead`,
            );
          }
          await tx.query("DELETE FROM skill_versions WHERE id = $1", [text(row, "id")]);
          await tx.query(
            "UPDATE skills SET latest_version_id = (SELECT id FROM skill_versions WHERE skill_id = $1 ORDER BY seq DESC LIMIT 1), updated_at = now() WHERE id = $1",
            [skillId],
          );
          return versionOf(row);
        }),
      );
    },
    async files(versionId) {
      const files: SkillFile[] = [];
      for (const path of await filePaths(db, versionId)) {
        files.push({ path, content: (await readFileChunks(db, versionId, path)) ?? new Uint8Array() });
      }
      return files;
    },
    file: (versionId, path) => readFileChunks(db, versionId, path),
  };
}
