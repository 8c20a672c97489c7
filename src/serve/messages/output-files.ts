import { createHash } from "node:crypto";
import { posix } from "node:path";
import type { FileStore } from "../store/files.js";
import type { SessionScratch } from "../store/session-scratch.js";
import { CONTAINER_OUTPUTS } from "./container-layout.js";

/** The output folder's files, by path: a hash of each one's bytes. */
export type OutputSnapshot = ReadonlyMap<string, string>;

/**
 * A container's output folder ({@link CONTAINER_OUTPUTS}) as Files API files: what a command wrote or changed
 * there becomes a file of the workspace, downloadable with `client.beta.files.download`.
 */
export interface OutputFiles {
  /** The output folder's files now. */
  snapshot(): Promise<OutputSnapshot>;
  /** Stores each file new or changed since `before` as a Files API file; their ids, in path order. */
  publish(before: OutputSnapshot): Promise<string[]>;
}

/** MIME types of the extensions outputs commonly have; anything else is `application/octet-stream`. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".json": "application/json",
  ".html": "text/html",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/** The MIME type a file of this name is stored with. Pure. */
export function outputMimeType(name: string): string {
  return MIME_TYPES[posix.extname(name).toLowerCase()] ?? "application/octet-stream";
}

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The output files of container `containerId`, its files in `files`, published to `fileStore`. */
export function createOutputFiles(deps: {
  workspaceId: string;
  containerId: string;
  files: SessionScratch;
  fileStore: FileStore;
}): OutputFiles {
  const { containerId, files } = deps;
  const read = async (): Promise<Map<string, { hash: string; content: Uint8Array }>> => {
    const listed = await files.list(containerId, `${CONTAINER_OUTPUTS}/`);
    const out = new Map<string, { hash: string; content: Uint8Array }>();
    for (const entry of listed) {
      const file = await files.read(containerId, entry.path);
      if (file !== undefined) out.set(entry.path, { hash: digest(file.content), content: file.content });
    }
    return out;
  };
  return {
    async snapshot() {
      return new Map([...(await read())].map(([path, file]) => [path, file.hash]));
    },
    async publish(before) {
      const ids: string[] = [];
      for (const [path, file] of await read()) {
        if (before.get(path) === file.hash) continue;
        const name = posix.basename(path);
        const stored = await deps.fileStore.create(deps.workspaceId, {
          filename: name,
          mimeType: outputMimeType(name),
          content: file.content,
        });
        ids.push(stored.id);
      }
      return ids;
    },
  };
}
