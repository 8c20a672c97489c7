import type { BetaFileMetadata } from "@anthropic-ai/sdk/resources/beta/files";
import { notFound } from "../errors.js";
import type { SqlDriver, SqlQuery, SqlRow } from "./driver.js";
import { dropFileChunks, readFileContent, stageFileChunks } from "./file-chunks.js";
import { newId } from "./ids.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import { iso, num, text } from "./rows.js";

/** A file to store: its name (the last path component the client sent), MIME type and bytes. */
export interface FileUpload {
  filename: string;
  mimeType: string;
  content: Uint8Array;
}

function fileOf(row: SqlRow): BetaFileMetadata {
  return {
    id: text(row, "id"),
    type: "file",
    filename: text(row, "filename"),
    mime_type: text(row, "mime_type"),
    size_bytes: num(row, "size_bytes"),
    created_at: iso(row, "created_at"),
    downloadable: true,
    expires_at: null,
    scope: null,
  };
}

/** Uploaded files of a workspace: metadata rows and their bytes in chunks, all in the database. */
export interface FileStore {
  create(workspaceId: string, upload: FileUpload): Promise<BetaFileMetadata>;
  get(workspaceId: string, id: string): Promise<BetaFileMetadata>;
  list(workspaceId: string, page: PageRequest): Promise<Page<BetaFileMetadata>>;
  /** The file's metadata and its bytes, exactly as uploaded. */
  content(workspaceId: string, id: string): Promise<{ file: BetaFileMetadata; content: Uint8Array }>;
  delete(workspaceId: string, id: string): Promise<void>;
}

/** The file store over `db`. */
export function createFileStore(db: SqlDriver): FileStore {
  const fileRow = async (q: SqlQuery, workspaceId: string, id: string): Promise<SqlRow> => {
    const [row] = await q.query("SELECT * FROM files WHERE id = $1 AND workspace_id = $2", [id, workspaceId]);
    if (row === undefined) throw notFound("file", id);
    return row;
  };
  return {
    async create(workspaceId, upload) {
      const id = newId("file");
      try {
        await stageFileChunks(db, id, upload.content);
        const [row] = await db.query(
          "INSERT INTO files (id, workspace_id, filename, mime_type, size_bytes) VALUES ($1, $2, $3, $4, $5) RETURNING *",
          [id, workspaceId, upload.filename, upload.mimeType, upload.content.length],
        );
        return fileOf(row ?? (await fileRow(db, workspaceId, id)));
      } catch (error) {
        await dropFileChunks(db, id).catch(() => undefined);
        throw error;
      }
    },
    async get(workspaceId, id) {
      return fileOf(await fileRow(db, workspaceId, id));
    },
    async list(workspaceId, page) {
      const rows = await db.query(
        "SELECT * FROM files WHERE workspace_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3",
        [workspaceId, page.after ?? null, page.limit + 1],
      );
      return toPage(
        rows.map((row) => ({ item: fileOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async content(workspaceId, id) {
      const file = fileOf(await fileRow(db, workspaceId, id));
      const content = await readFileContent(db, id);
      // Deleted while its chunks were read: what was read is not the file.
      if (content.length !== file.size_bytes) throw notFound("file", id);
      return { file, content };
    },
    async delete(workspaceId, id) {
      await fileRow(db, workspaceId, id);
      await db.query("DELETE FROM files WHERE id = $1 AND workspace_id = $2", [id, workspaceId]);
    },
  };
}
