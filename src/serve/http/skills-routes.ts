import type { BetaSkill } from "@anthropic-ai/sdk/resources/beta/skills/skills";
import { zipSync } from "fflate";
import { type Context, Hono } from "hono";
import { invalid } from "../errors.js";
import { DEFAULT_SERVE_SANDBOX } from "../sessions/served-sandbox-tier.js";
import { type Page, pageRequest } from "../store/page.js";
import type { SkillFile, SkillUpload } from "../store/skill-upload.js";
import { UPLOAD_LIMITS } from "../upload/limits.js";
import { multipartBoundary, readMultipart } from "../upload/multipart.js";
import { skillTree } from "../upload/skill-files.js";
import { parseSkillUpload } from "../upload/skill-head.js";
import { servedSkillWarnings } from "../upload/skill-warnings.js";
import { readZip } from "../upload/zip-reader.js";
import { attachmentHeaders } from "./attachment.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { checkStorable } from "./parse.js";

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(name: string, content: Uint8Array): boolean {
  return name.toLowerCase().endsWith(".zip") || ZIP_MAGIC.every((byte, i) => content[i] === byte);
}

/**
 * The upload in a multipart body, read as it streams in: `files[]` (or `files`) holding the skill's files by
 * path, or one zip of them, plus an optional `display_name`. Any other field is refused.
 */
async function readUpload(c: Context): Promise<{ upload: SkillUpload; displayName: string | undefined }> {
  const boundary = multipartBoundary(c.req.header("content-type") ?? "");
  if (boundary === undefined) {
    throw invalid("upload the skill as multipart/form-data with files[] (its files, or one zip)");
  }
  const body = c.req.raw.body;
  if (body === null) throw invalid("no files: upload the skill's files (files[]) or one zip of them");
  // Room for every file and a display_name: past that, skillTree would refuse the count anyway.
  const parts = await readMultipart(body, boundary, UPLOAD_LIMITS.maxFiles + 2);
  const entries: { name: string; content: Uint8Array }[] = [];
  let displayName: string | undefined;
  for (const part of parts) {
    if (part.name === "display_name" && part.filename === undefined) {
      displayName = new TextDecoder().decode(part.content);
      checkStorable(displayName, "display_name");
      continue;
    }
    if (part.name !== "files[]" && part.name !== "files")
      throw invalid(`unknown field ${JSON.stringify(part.name)}`);
    if (part.filename === undefined) throw invalid(`${part.name} must hold files, not text`);
    entries.push({ name: part.filename, content: part.content });
  }
  const [only] = entries;
  const files =
    entries.length === 1 && only !== undefined && isZip(only.name, only.content)
      ? await readZip(only.content)
      : entries;
  return { upload: parseSkillUpload(skillTree(files)), displayName };
}

/** The most skills one search answers (`?q=`): a search is one page, best first. */
export const MAX_SEARCH_LIMIT = 100;

/**
 * `GET /v1/skills?q=…` (a skillwright extension of the list): the workspace's skills that match `q`, best first
 * (`SkillStore.search`), as one page of the list's shape; `limit` up to {@link MAX_SEARCH_LIMIT}, no `page`.
 */
async function searchPage(store: ServeDeps["store"], workspaceId: string, query: string, c: Context) {
  if (c.req.query("page") !== undefined) throw invalid("a search (q) answers one page: leave out page");
  const { limit } = pageRequest(c.req.query("limit"), undefined);
  if (limit > MAX_SEARCH_LIMIT)
    throw invalid(`a search (q) answers at most ${MAX_SEARCH_LIMIT} skills: limit ${limit} is too many`);
  const data = await store.skills.search(workspaceId, query, limit);
  return {
    data,
    has_more: false,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    next_page: null,
    prev_page: null,
  } satisfies Page<BetaSkill>;
}

/** `/v1/skills` and `/v1/skills/:id/versions`: the SDK's `client.beta.skills` (+ `versions`). */
export function skillsRoutes({ store, sandboxTier = DEFAULT_SERVE_SANDBOX }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  // Accepted either way; what this server will not run is listed with the version (and on the web page).
  const warnings = (files: readonly SkillFile[]) => ({ warnings: servedSkillWarnings(files, sandboxTier) });
  app.post("/", async (c) => {
    const { upload, displayName } = await readUpload(c);
    return c.json({
      ...(await store.skills.create(c.var.workspaceId, upload, displayName)),
      ...warnings(upload.files),
    });
  });
  app.get("/", async (c) => {
    const query = c.req.query("q");
    const page = query === undefined ? pageRequest(c.req.query("limit"), c.req.query("page")) : undefined;
    const source = c.req.query("source");
    if (source !== undefined && source !== "custom") {
      // Only custom skills live here: Anthropic's own skills are not served by a self-hosted server.
      return c.json({ data: [], has_more: false, first_id: null, last_id: null, next_page: null });
    }
    if (page === undefined) return c.json(await searchPage(store, c.var.workspaceId, query ?? "", c));
    return c.json(await store.skills.list(c.var.workspaceId, page));
  });
  app.get("/:id", async (c) => c.json(await store.skills.get(c.var.workspaceId, c.req.param("id"))));
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    await store.skills.delete(c.var.workspaceId, id);
    return c.json({ id, type: "skill_deleted" });
  });
  app.post("/:id/versions", async (c) => {
    const { upload, displayName } = await readUpload(c);
    if (displayName !== undefined) throw invalid("display_name is set on the skill, not on a version");
    return c.json({
      ...(await store.skills.addVersion(c.var.workspaceId, c.req.param("id"), upload)),
      ...warnings(upload.files),
    });
  });
  app.get("/:id/versions", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(await store.skills.listVersions(c.var.workspaceId, c.req.param("id"), page));
  });
  app.get("/:id/versions/:version", async (c) => {
    const version = await store.skills.getVersion(
      c.var.workspaceId,
      c.req.param("id"),
      c.req.param("version"),
    );
    return c.json({ ...version, ...warnings(await store.skills.files(version.id)) });
  });
  app.delete("/:id/versions/:version", async (c) => {
    const deleted = await store.skills.deleteVersion(
      c.var.workspaceId,
      c.req.param("id"),
      c.req.param("version"),
    );
    return c.json({ id: deleted.id, type: "skill_version_deleted" });
  });
  app.get("/:id/versions/:version/content", async (c) => {
    const version = await store.skills.getVersion(
      c.var.workspaceId,
      c.req.param("id"),
      c.req.param("version"),
    );
    const files = await store.skills.files(version.id);
    const zip = zipSync(Object.fromEntries(files.map((f) => [`${version.name}/${f.path}`, f.content])));
    return c.body(new Uint8Array(zip), 200, {
      "content-type": "application/zip",
      ...attachmentHeaders(`${version.name}.zip`),
    });
  });
  return app;
}
