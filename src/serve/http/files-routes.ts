import { type Context, Hono } from "hono";
import { nameProblem } from "../../io/path-limits.js";
import { ApiError, invalid, notImplemented } from "../errors.js";
import { pageRequest } from "../store/page.js";
import { FILE_LIMITS } from "../upload/limits.js";
import { multipartBoundary, readMultipart } from "../upload/multipart.js";
import { attachmentHeaders } from "./attachment.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { checkStorable, refuseUnservedQuery } from "./parse.js";

/** The name a file is stored under: the last path component of what the client sent, `unnamed` when empty. Pure. */
export function storedFilename(sent: string | undefined): string {
  const last = (sent ?? "").split(/[/\\]/).at(-1) ?? "";
  return last.trim() === "" ? "unnamed" : last;
}

/** The one `file` part of an upload's multipart body: its name, MIME type and bytes. */
async function readFileUpload(
  c: Context,
): Promise<{ filename: string; mimeType: string; content: Uint8Array }> {
  const boundary = multipartBoundary(c.req.header("content-type") ?? "");
  if (boundary === undefined) throw invalid("upload the file as multipart/form-data with a file part");
  const body = c.req.raw.body;
  if (body === null) throw invalid("no file: send it as the multipart part named file");
  const parts = await readMultipart(body, boundary, 4);
  let file: (typeof parts)[number] | undefined;
  for (const part of parts) {
    if (part.name === "expires_in_seconds")
      throw notImplemented("the files.upload parameter expires_in_seconds");
    if (part.name !== "file") throw invalid(`unknown field ${JSON.stringify(part.name)}`);
    if (file !== undefined) throw invalid("one file per upload");
    file = part;
  }
  if (file === undefined) throw invalid("no file: send it as the multipart part named file");
  if (file.content.length > FILE_LIMITS.maxFileBytes) {
    throw new ApiError(
      "request_too_large",
      `a file is at most ${FILE_LIMITS.maxFileBytes} bytes; this one is ${file.content.length}`,
    );
  }
  checkStorable(file.filename ?? "", "file: its filename");
  checkStorable(file.contentType ?? "", "file: its Content-Type");
  const filename = storedFilename(file.filename);
  const problem = nameProblem(filename, "a file name");
  if (problem !== undefined) throw invalid(problem);
  return {
    filename,
    mimeType: file.contentType ?? "application/octet-stream",
    content: file.content,
  };
}

/** `/v1/files`: the SDK's `client.beta.files`; the bytes live in the database, never on a local path. */
export function filesRoutes({ store }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.post("/", async (c) => c.json(await store.files.create(c.var.workspaceId, await readFileUpload(c))));
  app.get("/", async (c) => {
    refuseUnservedQuery(c, "files.list", ["ids", "scope_id"]);
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(await store.files.list(c.var.workspaceId, page));
  });
  app.get("/:id", async (c) => c.json(await store.files.get(c.var.workspaceId, c.req.param("id"))));
  app.get("/:id/content", async (c) => {
    const { file, content } = await store.files.content(c.var.workspaceId, c.req.param("id"));
    // Stored bytes are never shown as a page of this origin (an uploaded text/html or SVG runs no script).
    return c.body(new Uint8Array(content), 200, {
      "content-type": file.mime_type,
      "content-length": String(content.length),
      ...attachmentHeaders(file.filename),
    });
  });
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    await store.files.delete(c.var.workspaceId, id);
    return c.json({ id, type: "file_deleted" });
  });
  return app;
}
