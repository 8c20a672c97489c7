import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeSkillRetriever } from "../../src/serve/sessions/store-skill-retriever.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { anyWordQuery, searchStoredSkills } from "../../src/serve/store/skill-search.js";
import type { SkillUpload } from "../../src/serve/store/skill-upload.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { usePostgresAndTree } from "../support/postgres-tree.js";

// Stored skills searched by the database itself (issue #25 item 2): PostgreSQL's full-text search over each
// skill's latest version, on PGlite and on PostgreSQL, with the same SQL.

const setup = usePostgresAndTree();

const upload = (name: string, description: string, whenToUse?: string): SkillUpload => ({
  name,
  description,
  head: { description, ...(whenToUse === undefined ? {} : { whenToUse }) },
  files: [{ path: "SKILL.md", content: new TextEncoder().encode(`---\nname: ${name}\n---\nBody\n`) }],
});

describe("anyWordQuery", () => {
  it("keeps letters and digits, each word once, joined to match any, without the engine's stop words", () => {
    expect(anyWordQuery("Rotate the API keys! keys; 2fa & x")).toBe("rotate | api | keys | 2fa");
    // The words `skillwright search` ignores say nothing here either.
    expect(anyWordQuery("Use a skill to help me")).toBeUndefined();
    expect(anyWordQuery("'); DROP TABLE skills; --")).toBe("drop | table");
    expect(anyWordQuery("!!! ?")).toBeUndefined();
  });
});

describe.each([
  ["PGlite", () => freshPgliteDir(setup.tree.path("pglite-search"))],
  ["PostgreSQL", () => setup.postgres.createDatabase("search")],
])("searching stored skills on %s", (_name, location) => {
  let store: Store;
  let ws: string;
  let other: string;
  /** Each skill made in `beforeAll`: its version, by name. */
  const versionOf = new Map<string, string>();
  const versions = (...names: string[]) => names.map((n) => versionOf.get(n) ?? "");
  beforeAll(async () => {
    store = await createStore(await openDriver(await location()));
    ws = await ensureWorkspace(store.db, "default");
    other = await ensureWorkspace(store.db, "other");
    for (const [workspace, made] of [
      [ws, upload("pdf-forms", "Fills in PDF forms and flattens them")],
      [ws, upload("deploy-service", "Deploys the service to production", "shipping a release")],
      [ws, upload("rotate-secrets", "Rotates API keys and secrets in the vault")],
      [other, upload("other-deploys", "Deploys everything everywhere")],
    ] as const) {
      versionOf.set(made.name, (await store.skills.create(workspace, made)).latest_version_id);
    }
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it("ranks the workspace's skills by the words they share with the query, stemmed, name words first", async () => {
    const found = await searchStoredSkills(store.db, ws, "deploying our services", { limit: 5 });
    expect(found.map((m) => m.name)).toEqual(["deploy-service"]);
    expect(found[0]?.score).toBeGreaterThan(0);
    const keys = await searchStoredSkills(store.db, ws, "rotate keys", { limit: 5 });
    expect(keys.map((m) => m.name)).toEqual(["rotate-secrets"]);
    // when_to_use is searched too.
    expect((await searchStoredSkills(store.db, ws, "release", { limit: 5 })).map((m) => m.name)).toEqual([
      "deploy-service",
    ]);
  });

  it("never returns another workspace's skill, and searches only the versions given", async () => {
    const all = await searchStoredSkills(store.db, ws, "deploys", { limit: 5 });
    expect(all.map((m) => m.name)).not.toContain("other-deploys");
    const scoped = await searchStoredSkills(store.db, ws, "deploys pdf", {
      limit: 5,
      versionIds: versions("pdf-forms"),
    });
    expect(scoped.map((m) => m.name)).toEqual(["pdf-forms"]);
    expect(await searchStoredSkills(store.db, ws, "deploys", { limit: 5, versionIds: [] })).toEqual([]);
    // Another workspace's version is not this workspace's to search.
    const foreign = { limit: 5, versionIds: versions("other-deploys") };
    expect(await searchStoredSkills(store.db, ws, "deploys", foreign)).toEqual([]);
  });

  it("follows the latest version: a new version's words are found, the old ones are not", async () => {
    const skill = await store.skills.create(ws, upload("notes", "Writes meeting minutes"));
    expect((await searchStoredSkills(store.db, ws, "minutes", { limit: 5 })).map((m) => m.name)).toEqual([
      "notes",
    ]);
    await store.skills.addVersion(ws, skill.id, upload("notes", "Summarises podcasts"));
    expect(await searchStoredSkills(store.db, ws, "minutes", { limit: 5 })).toEqual([]);
    expect((await searchStoredSkills(store.db, ws, "podcast", { limit: 5 })).map((m) => m.name)).toEqual([
      "notes",
    ]);
  });

  it("ranks a version an agent pins by its own text, not the latest's", async () => {
    const skill = await store.skills.create(ws, upload("minutes", "Writes meeting minutes"));
    await store.skills.addVersion(ws, skill.id, upload("minutes", "Summarises podcasts"));
    const retriever = storeSkillRetriever(
      store.db,
      ws,
      () => new Map([["minutes", skill.latest_version_id]]),
    );
    const documents = [{ name: "minutes", text: "" }];
    expect(await retriever.retrieve({ query: "meeting minutes", documents, limit: 5 })).toEqual([
      { name: "minutes", score: expect.any(Number) },
    ]);
    expect(await retriever.retrieve({ query: "podcasts", documents, limit: 5 })).toEqual([]);
  });

  it("is a served session's SkillRetriever: ranks among the skills the session sees, by name", async () => {
    const given = new Map(
      ["pdf-forms", "deploy-service", "rotate-secrets"].map((n) => [n, versionOf.get(n) ?? ""]),
    );
    const retriever = storeSkillRetriever(store.db, ws, () => given);
    const documents = [
      { name: "pdf-forms", text: "" },
      { name: "deploy-service", text: "" },
    ];
    expect(await retriever.retrieve({ query: "deploy the service", documents, limit: 5 })).toEqual([
      { name: "deploy-service", score: expect.any(Number) },
    ]);
    expect(await retriever.retrieve({ query: "rotate keys", documents, limit: 5 })).toEqual([]);
  });

  it("answers each of two skills that share a name, with their ids, within the limit", async () => {
    const a = await store.skills.create(ws, upload("twin-maker", "Knits matching sweaters"));
    const b = await store.skills.create(ws, upload("twin-maker", "Knits matching sweaters"));
    const found = await searchStoredSkills(store.db, ws, "knitting sweaters", { limit: 5 });
    expect(found.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
    expect(await searchStoredSkills(store.db, ws, "knitting sweaters", { limit: 1 })).toHaveLength(1);
    expect((await store.skills.search(ws, "sweaters", 5)).map((s) => s.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
  });

  it("answers nothing for a query with no words, and takes hostile text as words", async () => {
    expect(await searchStoredSkills(store.db, ws, "?!", { limit: 5 })).toEqual([]);
    expect(await searchStoredSkills(store.db, ws, "'); DROP TABLE skills; --", { limit: 5 })).toEqual([]);
    expect((await searchStoredSkills(store.db, ws, "pdf", { limit: 5 })).map((m) => m.name)).toEqual([
      "pdf-forms",
    ]);
  });
});
