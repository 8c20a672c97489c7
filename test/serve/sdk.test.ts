import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../cli/run-cli.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { usePostgresAndTree } from "../support/postgres-tree.js";
import { all } from "../support/sdk-calls.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

const KEY = "sk-test-default";

const setup = usePostgresAndTree({ "home/repo/.keep": "" });

const skillFile = (name: string, description: string, body = "Do the thing.") =>
  toFile(Buffer.from(`---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`), `${name}/SKILL.md`);

describe.each([
  ["PGlite", () => freshPgliteDir(setup.tree.path("pglite-data"))],
  ["PostgreSQL", async () => setup.postgres.createDatabase("sdk")],
])("the official SDK client against `skillwright serve` on %s", (_name, location) => {
  let db: string;
  let server: ServeProcess;
  let client: Anthropic;
  let otherKey: string;

  beforeAll(async () => {
    db = await location();
    // Made before the server starts: PGlite's data dir belongs to one process at a time.
    const made = await cli(setup.tree, ["keys", "create", "--workspace", "other", "--db", db]);
    expect(made.code).toBe(0);
    otherKey = made.stdout.trim();
    server = await startServe(["--db", db, "--api-key", KEY]);
    client = sdkClient(server.url, KEY);
    // `keys create` and a serve start: each a process loading PGlite or pg, tens of seconds on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a missing or unknown key (401) and another workspace's header (403)", async () => {
    const noKey = await fetch(`${server.url}/v1/skills`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    await expect(sdkClient(server.url, "wrong").beta.skills.list()).rejects.toBeInstanceOf(
      Anthropic.AuthenticationError,
    );
    const viaHeader = await fetch(`${server.url}/v1/skills`, { headers: { "x-api-key": KEY } });
    expect(viaHeader.status).toBe(200);
    await expect(client.beta.skills.list({ workspace_id: "wrkspc_someone_else" })).rejects.toBeInstanceOf(
      Anthropic.PermissionDeniedError,
    );
  });

  it("creates skills from files, pages through them, versions them and serves their content", async () => {
    const skill = await client.beta.skills.create({
      files: [
        await skillFile("greeter", "Greets people"),
        await toFile(Buffer.from("# Tone\nBe warm.\n"), "greeter/references/tone.md"),
      ],
    });
    expect(skill).toMatchObject({ type: "skill", display_name: "greeter", source: { type: "custom" } });
    for (const name of ["one", "two", "three"]) {
      await client.beta.skills.create({
        files: [await skillFile(name, `Skill ${name}`)],
        display_name: `S ${name}`,
      });
    }
    const first = await client.beta.skills.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.hasNextPage()).toBe(true);
    const every = await all(client.beta.skills.list({ limit: 2 }));
    expect(every.map((s) => s.display_name)).toEqual(["S three", "S two", "S one", "greeter"]);

    const retrieved = await client.beta.skills.retrieve(skill.id);
    expect(retrieved.latest_version_id).toBe(skill.latest_version_id);
    const v2 = await client.beta.skills.versions.create(skill.id, {
      files: [await skillFile("greeter", "Greets people warmly", "Say hello warmly.")],
    });
    expect(v2).toMatchObject({ type: "skill_version", name: "greeter", description: "Greets people warmly" });
    const latest = await client.beta.skills.versions.retrieve("latest", { skill_id: skill.id });
    expect(latest.id).toBe(v2.id);
    const versions = await all(client.beta.skills.versions.list(skill.id));
    expect(versions.map((v) => v.id)).toEqual([v2.id, skill.latest_version_id]);

    const content = await client.beta.skills.versions.download(skill.latest_version_id, {
      skill_id: skill.id,
    });
    const files = unzipSync(new Uint8Array(await content.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["greeter/SKILL.md", "greeter/references/tone.md"]);

    await expect(
      client.beta.skills.versions.create(skill.id, { files: [await skillFile("renamed", "x")] }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    const deleted = await client.beta.skills.versions.delete(v2.id, { skill_id: skill.id });
    expect(deleted).toEqual({ id: v2.id, type: "skill_version_deleted" });
    expect((await client.beta.skills.retrieve(skill.id)).latest_version_id).toBe(skill.latest_version_id);

    const doomed = (await client.beta.skills.list({ limit: 1 })).data[0];
    if (doomed === undefined) throw new Error("no skill listed");
    expect(await client.beta.skills.delete(doomed.id)).toEqual({ id: doomed.id, type: "skill_deleted" });
    await expect(client.beta.skills.retrieve(doomed.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it("keeps environments, agents (+ versions) and sessions, and takes session events", async () => {
    const env = await client.beta.environments.create({ name: "prod", metadata: { team: "a" } });
    expect(env).toMatchObject({ type: "environment", name: "prod", config: { type: "self_hosted" } });
    const updated = await client.beta.environments.update(env.id, {
      description: "Production",
      metadata: { team: null, tier: "1" },
    });
    expect(updated).toMatchObject({ description: "Production", metadata: { tier: "1" } });
    expect((await client.beta.environments.retrieve(env.id)).description).toBe("Production");

    const skill = (await all(client.beta.skills.list())).find((s) => s.display_name === "greeter");
    if (skill === undefined) throw new Error("greeter is gone");
    const agent = await client.beta.agents.create({
      name: "helper",
      model: "claude-sonnet-5-5",
      system: "Be brief.",
      skills: [{ type: "custom", skill_id: skill.id }],
      tools: [
        { type: "custom", name: "save_mindmap", description: "Saves", input_schema: { type: "object" } },
        { type: "mcp_toolset", mcp_server_name: "docs" },
      ],
      mcp_servers: [{ type: "url", name: "docs", url: "https://example.com/mcp" }],
    });
    expect(agent).toMatchObject({
      type: "agent",
      version: 1,
      model: { id: "claude-sonnet-5-5" },
      skills: [{ type: "custom", skill_id: skill.id, version: "latest" }],
    });
    const v2 = await client.beta.agents.update(agent.id, { version: 1, system: "Be very brief." });
    expect(v2.version).toBe(2);
    await expect(client.beta.agents.update(agent.id, { version: 1, system: "x" })).rejects.toBeInstanceOf(
      Anthropic.ConflictError,
    );
    expect((await client.beta.agents.retrieve(agent.id, { version: 1 })).system).toBe("Be brief.");
    expect((await all(client.beta.agents.versions.list(agent.id))).map((a) => a.version)).toEqual([2, 1]);
    expect((await all(client.beta.agents.list())).map((a) => a.id)).toContain(agent.id);
    await expect(
      client.beta.agents.create({
        name: "x",
        model: "m",
        skills: [{ type: "custom", skill_id: "skill_nope" }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);

    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: env.id,
      title: "t",
    });
    expect(session).toMatchObject({ type: "session", status: "idle", agent: { id: agent.id, version: 2 } });
    const renamed = await client.beta.sessions.update(session.id, { title: "renamed", metadata: { k: "v" } });
    expect(renamed).toMatchObject({ title: "renamed", metadata: { k: "v" } });
    expect((await client.beta.sessions.retrieve(session.id)).title).toBe("renamed");
    expect((await all(client.beta.sessions.list())).map((s) => s.id)).toEqual([session.id]);
    expect((await all(client.beta.sessions.events.list(session.id))).length).toBe(0);
    const send = client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.message", content: [{ type: "text", text: "hi" }] }],
    });
    expect((await send).data).toMatchObject([{ type: "user.message" }]);

    expect((await client.beta.sessions.archive(session.id)).archived_at).not.toBeNull();
    expect(await all(client.beta.sessions.list())).toEqual([]);
    expect(await client.beta.sessions.delete(session.id)).toEqual({
      id: session.id,
      type: "session_deleted",
    });
    expect((await client.beta.agents.archive(agent.id)).archived_at).not.toBeNull();
    expect((await client.beta.environments.archive(env.id)).archived_at).not.toBeNull();
    const gone = await client.beta.environments.create({ name: "tmp" });
    expect(await client.beta.environments.delete(gone.id)).toEqual({
      id: gone.id,
      type: "environment_deleted",
    });
  });

  it("confines a key to its workspace: another workspace's ids are not found", async () => {
    const other = sdkClient(server.url, otherKey);
    expect((await other.beta.skills.list()).data).toEqual([]);
    const mine = (await client.beta.skills.list({ limit: 1 })).data[0];
    if (mine === undefined) throw new Error("no skill");
    await expect(other.beta.skills.retrieve(mine.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(other.beta.skills.delete(mine.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(
      other.beta.skills.versions.create(mine.id, { files: [await skillFile("x", "y")] }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(
      other.beta.agents.create({ name: "x", model: "m", skills: [{ type: "custom", skill_id: mine.id }] }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    expect((await client.beta.skills.retrieve(mine.id)).id).toBe(mine.id);
  });

  it("keeps binary assets and big files byte for byte, and refuses a text file that is not UTF-8", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xd8, 0x00, 0xe9]);
    const unknown = Buffer.from([0x00, 0xff, 0xfe, 0xc3]);
    const big = Buffer.from(new Uint8Array(300_000).map((_, i) => (i * 7919) % 251));
    const skill = await client.beta.skills.create({
      files: [
        await skillFile("assets", "Has binary assets"),
        await toFile(png, "assets/img/logo.png"),
        await toFile(unknown, "assets/data/table.xyz"),
        await toFile(big, "assets/data/big.bin"),
        await toFile(Buffer.from("héllo → 世界\n"), "assets/notes.md"),
      ],
    });
    const content = await client.beta.skills.versions.download(skill.latest_version_id, {
      skill_id: skill.id,
    });
    const files = unzipSync(new Uint8Array(await content.arrayBuffer()));
    expect(Buffer.from(files["assets/img/logo.png"] ?? []).equals(png)).toBe(true);
    expect(Buffer.from(files["assets/data/table.xyz"] ?? []).equals(unknown)).toBe(true);
    expect(Buffer.from(files["assets/data/big.bin"] ?? []).equals(big)).toBe(true);
    expect(Buffer.from(files["assets/notes.md"] ?? []).toString()).toBe("héllo → 世界\n");
    await expect(
      client.beta.skills.versions.create(skill.id, {
        files: [
          await skillFile("assets", "Has binary assets"),
          await toFile(Buffer.from([0xe9]), "assets/notes.md"),
        ],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/assets\/notes\.md\\?" is text but not valid UTF-8/),
    });
    await client.beta.skills.delete(skill.id);
  });

  it("finds the skills and agents again after a restart", async () => {
    const skills = await all(client.beta.skills.list());
    const agents = await all(client.beta.agents.list({ include_archived: true }));
    await server.stop();
    server = await startServe(["--db", db, "--api-key", KEY]);
    client = sdkClient(server.url, KEY);
    expect((await all(client.beta.skills.list())).map((s) => s.id)).toEqual(skills.map((s) => s.id));
    expect((await all(client.beta.agents.list({ include_archived: true }))).map((a) => a.id)).toEqual(
      agents.map((a) => a.id),
    );
    const first = skills[0];
    if (first === undefined) throw new Error("no skill");
    expect((await client.beta.skills.versions.retrieve("latest", { skill_id: first.id })).skill_id).toBe(
      first.id,
    );
  }, 120_000);
});
