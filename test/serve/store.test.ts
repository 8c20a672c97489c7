import { describe, expect, it } from "vitest";
import type { SqlDriver } from "../../src/serve/store/driver.js";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { MIGRATIONS, migrate } from "../../src/serve/store/migrations.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import type { SkillUpload } from "../../src/serve/store/skill-upload.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace, workspaceForKeyHash } from "../../src/serve/store/workspaces.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { usePostgresAndTree } from "../support/postgres-tree.js";

const setup = usePostgresAndTree();

const upload = (name: string, body = "Body"): SkillUpload => ({
  name,
  description: `${name} does things`,
  head: { description: `${name} does things` },
  files: [
    { path: "SKILL.md", content: new TextEncoder().encode(`---\nname: ${name}\n---\n${body}\n`) },
    { path: "references/a.md", content: new Uint8Array([0, 1, 2, 255]) },
  ],
});

const drivers: [string, (n: number) => Promise<string>][] = [
  // The first store of the file migrates an empty dir; the others start from a migrated copy (an initdb each
  // cost seconds, tens of them under load).
  [
    "PGlite",
    async (n) => (n === 1 ? setup.tree.path(`pglite-${n}`) : freshPgliteDir(setup.tree.path(`pglite-${n}`))),
  ],
  ["PostgreSQL", async (n) => setup.postgres.createDatabase(`store_${n}`)],
];

describe.each(drivers)("the store on %s", (_name, location) => {
  let counter = 0;
  const open = async (): Promise<{ db: string; store: Store }> => {
    counter += 1;
    const db = await location(counter);
    return { db, store: await createStore(await openDriver(db)) };
  };

  it("migrates once, records each migration, and a second migrate is a no-op", async () => {
    const { db, store } = await open();
    const rows = await store.db.query("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((row) => Number(row.version))).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(store.db)).toEqual([]);
    await store.close();
    const again: SqlDriver = await openDriver(db);
    expect(await migrate(again)).toEqual([]);
    await again.close();
    // Three opens of a fresh database, each running or checking every migration: 60 s was missed on a 2-core
    // machine running the suite beside other builds.
  }, 240_000);

  it("keeps skills, versions and files per workspace, and finds them after reopening", async () => {
    const { db, store } = await open();
    const ws = await ensureWorkspace(store.db, "default");
    const other = await ensureWorkspace(store.db, "other");
    await addApiKey(store.db, ws, "key-1");
    expect(await workspaceForKeyHash(store.db, hashApiKey("key-1"))).toBe(ws);
    expect(await workspaceForKeyHash(store.db, hashApiKey("nope"))).toBeUndefined();
    const skill = await store.skills.create(ws, upload("alpha"));
    expect(skill).toMatchObject({ type: "skill", display_name: "alpha", source: { type: "custom" } });
    const v2 = await store.skills.addVersion(ws, skill.id, upload("alpha", "Second"));
    expect((await store.skills.get(ws, skill.id)).latest_version_id).toBe(v2.id);
    await expect(store.skills.addVersion(ws, skill.id, upload("beta"))).rejects.toThrow(/keeps its name/);
    await expect(store.skills.get(other, skill.id)).rejects.toMatchObject({ status: 404 });
    const files = await store.skills.files(v2.id);
    expect(files.map((f) => f.path)).toEqual(["SKILL.md", "references/a.md"]);
    expect([...(files[1]?.content ?? [])]).toEqual([0, 1, 2, 255]);
    await store.close();

    const reopened = await createStore(await openDriver(db));
    expect((await reopened.skills.getVersion(ws, skill.id, "latest")).id).toBe(v2.id);
    expect(await workspaceForKeyHash(reopened.db, hashApiKey("key-1"))).toBe(ws);
    await reopened.close();
  }, 60_000);

  it("finds a version by id or latest in one statement, 404 naming the skill or the version", async () => {
    const { store } = await open();
    const ws = await ensureWorkspace(store.db, "default");
    const other = await ensureWorkspace(store.db, "other");
    const alpha = await store.skills.create(ws, upload("alpha"));
    const beta = await store.skills.create(ws, upload("beta"));
    const v2 = await store.skills.addVersion(ws, alpha.id, upload("alpha", "Second"));
    expect(await store.skills.getVersion(ws, alpha.id, "latest")).toEqual(v2);
    expect((await store.skills.getVersion(ws, alpha.id, alpha.latest_version_id)).id).toBe(
      alpha.latest_version_id,
    );
    await expect(store.skills.getVersion(ws, alpha.id, beta.latest_version_id)).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/version of skill/),
    });
    await expect(store.skills.getVersion(other, alpha.id, "latest")).rejects.toMatchObject({
      status: 404,
      message: expect.not.stringMatching(/version of skill/),
    });
    await expect(store.skills.getVersion(ws, "skill_nope", "latest")).rejects.toMatchObject({ status: 404 });
    await store.close();
  }, 60_000);

  it("pages with cursors, newest first", async () => {
    const { store } = await open();
    const ws = await ensureWorkspace(store.db, "default");
    for (const name of ["a", "b", "c", "d", "e"]) await store.skills.create(ws, upload(name));
    const first = await store.skills.list(ws, { limit: 2, after: undefined });
    expect(first.data.map((s) => s.display_name)).toEqual(["e", "d"]);
    expect(first.has_more).toBe(true);
    expect(first.next_page).not.toBeNull();
    const names: string[] = [...first.data.map((s) => s.display_name)];
    let page = first;
    while (page.next_page !== null) {
      const { pageRequest } = await import("../../src/serve/store/page.js");
      page = await store.skills.list(ws, pageRequest("2", page.next_page));
      names.push(...page.data.map((s) => s.display_name));
    }
    expect(names).toEqual(["e", "d", "c", "b", "a"]);
    await store.close();
  }, 60_000);

  it("rolls a failed write back whole: no skill without its version", async () => {
    const { store } = await open();
    const ws = await ensureWorkspace(store.db, "default");
    const duplicate = upload("dup");
    duplicate.files.push({ path: "SKILL.md", content: new Uint8Array() });
    await expect(store.skills.create(ws, duplicate)).rejects.toThrow();
    expect((await store.skills.list(ws, { limit: 10, after: undefined })).data).toEqual([]);
    await store.close();
  }, 60_000);

  it("versions agents and orders session events", async () => {
    const { store } = await open();
    const ws = await ensureWorkspace(store.db, "default");
    const agent = await store.agents.create(ws, {
      name: "helper",
      description: null,
      model: { id: "claude-sonnet-5-5" },
      system: null,
      skills: [],
      tools: [],
      mcp_servers: [],
      metadata: {},
      execution_identity: { type: "service_account" },
      multiagent: null,
    });
    expect(agent.version).toBe(1);
    const same = await store.agents.update(ws, agent.id, (body) => body);
    expect(same.version).toBe(1);
    const v2 = await store.agents.update(ws, agent.id, (body) => ({ ...body, system: "Be brief." }), 1);
    expect(v2.version).toBe(2);
    await expect(store.agents.update(ws, agent.id, (b) => b, 1)).rejects.toMatchObject({ status: 409 });
    expect((await store.agents.get(ws, agent.id, 1)).system).toBeNull();
    const env = await store.environments.create(ws, {
      name: "e",
      description: null,
      config: { type: "self_hosted" },
      metadata: {},
    });
    const session = await store.sessions.create(ws, {
      agent: { ...v2, type: "agent", multiagent: null },
      environmentId: env.id,
      title: null,
      metadata: {},
      vault_ids: [],
    });
    await store.sessions.appendEvents(ws, session.id, [{ type: "user.message", content: [] }]);
    await store.sessions.appendEvents(ws, session.id, [{ type: "a" }, { type: "b" }]);
    const events = await store.sessions.listEvents(ws, session.id, { limit: 10, after: undefined });
    expect(events.data.map((e) => e.type)).toEqual(["user.message", "a", "b"]);

    // Transcript rows go in the events' statement, in order; `stored` hears the last one's seq.
    const transcript = () =>
      store.db.query("SELECT seq, entry FROM session_transcripts WHERE session_id = $1 ORDER BY seq", [
        session.id,
      ]);
    const heard: number[] = [];
    const rows = (...entries: string[]) => ({ entries, stored: (seq: number) => heard.push(seq) });
    await store.sessions.appendSequenced(ws, session.id, [{ type: "c" }], {
      transcript: rows("t1", "t2", "t3"),
    });
    const stored = await transcript();
    expect(stored.map((row) => row.entry)).toEqual(["t1", "t2", "t3"]);
    expect(heard).toEqual([Number(stored[2]?.seq)]);
    // Rows alone (no event) are still stored; rows whose events are refused are not.
    await store.sessions.appendSequenced(ws, session.id, [], { transcript: rows("t4") });
    await store.sessions.appendSequenced(ws, session.id, [{ type: "user.message", content: [] }], {
      startsTurn: true,
      transcript: rows("never"),
    });
    expect((await transcript()).map((row) => row.entry)).toEqual(["t1", "t2", "t3", "t4"]);
    expect(heard).toHaveLength(2);
    await store.close();
  }, 60_000);
});
