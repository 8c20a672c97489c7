import Anthropic, { type APIError, toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { createStore } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";

const skillFile = (name: string, description = `${name} things`) =>
  toFile(Buffer.from(`---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`), `${name}/SKILL.md`);

/** What `call` threw (the test fails when it resolves): the SDK's error and the error body's message. */
async function refusal(call: Promise<unknown>): Promise<{ error: APIError; message: string }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof Anthropic.APIError)) throw error;
    const body: unknown = error.error;
    const inner = typeof body === "object" && body !== null ? Reflect.get(body, "error") : undefined;
    const message = typeof inner === "object" && inner !== null ? Reflect.get(inner, "message") : undefined;
    return { error, message: String(message) };
  }
  throw new Error("the call was accepted");
}

let served: ServedApp;
let client: Anthropic;
beforeAll(async () => {
  served = await startServedApp();
  client = served.client();
}, 60_000);
afterAll(async () => {
  await served?.close();
});

describe("a skill that agents use", () => {
  it("is not deleted while an agent's current version lists it: 409 naming the agents, not retried", async () => {
    const skill = await client.beta.skills.create({ files: [await skillFile("deploy")] });
    const helper = await client.beta.agents.create({
      name: "helper",
      model: "m",
      skills: [{ type: "custom", skill_id: skill.id }],
    });
    const pinned = await client.beta.agents.create({
      name: "pinned",
      model: "m",
      skills: [{ type: "custom", skill_id: skill.id, version: skill.latest_version_id }],
    });
    const unrelated = await client.beta.agents.create({ name: "unrelated", model: "m" });

    // A client that retries as the SDK does by default, counting its requests.
    let requests = 0;
    const retrying = new Anthropic({
      apiKey: "k",
      baseURL: served.url,
      fetch: (url, init) => {
        requests += 1;
        return fetch(url, init);
      },
    });
    const refused = await refusal(retrying.beta.skills.delete(skill.id));
    expect(refused.error).toBeInstanceOf(Anthropic.ConflictError);
    expect(refused.error.error).toMatchObject({ type: "error", error: { type: "conflict_error" } });
    expect(refused.message).toBe(
      `skill ${skill.id} is used by 2 agents: ${helper.id} ("helper"), ${pinned.id} ("pinned"); remove it from their skills (agents.update) or archive them, then delete it`,
    );
    expect(refused.message).not.toContain(unrelated.id);
    expect(requests).toBe(1);
    expect((await client.beta.skills.retrieve(skill.id)).id).toBe(skill.id);

    // An agent whose latest version dropped the skill no longer holds it; an archived agent does not either.
    await client.beta.agents.update(helper.id, { version: 1, skills: [] });
    expect((await refusal(client.beta.skills.delete(skill.id))).message).toMatch(
      new RegExp(`used by 1 agent: ${pinned.id} \\("pinned"\\);`),
    );
    await client.beta.agents.archive(pinned.id);
    expect(await client.beta.skills.delete(skill.id)).toEqual({ id: skill.id, type: "skill_deleted" });
  });

  it("keeps a version an agent pins: 409 naming the agent; other versions and `latest` users do not hold one", async () => {
    const skill = await client.beta.skills.create({ files: [await skillFile("review")] });
    const v1 = skill.latest_version_id;
    const v2 = (
      await client.beta.skills.versions.create(skill.id, { files: [await skillFile("review", "v2")] })
    ).id;
    const v3 = (
      await client.beta.skills.versions.create(skill.id, { files: [await skillFile("review", "v3")] })
    ).id;
    const pinning = await client.beta.agents.create({
      name: "pins v2",
      model: "m",
      skills: [{ type: "custom", skill_id: skill.id, version: v2 }],
    });
    await client.beta.agents.create({
      name: "latest",
      model: "m",
      skills: [{ type: "custom", skill_id: skill.id }],
    });

    const refused = await refusal(client.beta.skills.versions.delete(v2, { skill_id: skill.id }));
    expect(refused.error).toBeInstanceOf(Anthropic.ConflictError);
    expect(refused.message).toBe(
      `version ${v2} of skill ${skill.id} is used by 1 agent: ${pinning.id} ("pins v2"); remove it from their skills (agents.update) or archive them, then delete it`,
    );
    expect(refused.error.headers?.get("x-should-retry")).toBe("false");
    // The latest version goes even though an agent follows `latest` (it then follows v2), and so does v1.
    expect((await client.beta.skills.versions.delete(v3, { skill_id: skill.id })).id).toBe(v3);
    expect((await client.beta.skills.versions.delete(v1, { skill_id: skill.id })).id).toBe(v1);
    expect((await client.beta.skills.versions.list(skill.id)).data.map((v) => v.id)).toEqual([v2]);
  });
});

describe("an agent's skills", () => {
  it("may not share a name: create and update refuse (400) naming both skills", async () => {
    const one = await client.beta.skills.create({ files: [await skillFile("ship")] });
    const two = await client.beta.skills.create({ files: [await skillFile("ship", "Ships differently")] });
    const clash = await refusal(
      client.beta.agents.create({
        name: "x",
        model: "m",
        skills: [
          { type: "custom", skill_id: one.id },
          { type: "custom", skill_id: two.id },
        ],
      }),
    );
    expect(clash.error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(clash.message).toBe(
      `skills: skills ${one.id} and ${two.id} are both named "ship"; an agent's skills need distinct names`,
    );
    const twice = await refusal(
      client.beta.agents.create({
        name: "x",
        model: "m",
        skills: [
          { type: "custom", skill_id: one.id },
          { type: "custom", skill_id: one.id, version: one.latest_version_id },
        ],
      }),
    );
    expect(twice.message).toBe(`skills: skill ${one.id} is listed twice`);

    const agent = await client.beta.agents.create({
      name: "x",
      model: "m",
      skills: [{ type: "custom", skill_id: one.id }],
    });
    const update = await refusal(
      client.beta.agents.update(agent.id, {
        version: 1,
        skills: [
          { type: "custom", skill_id: two.id },
          { type: "custom", skill_id: one.id },
        ],
      }),
    );
    expect(update.error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(update.message).toContain(`skills ${two.id} and ${one.id} are both named "ship"`);
    expect((await client.beta.agents.retrieve(agent.id)).version).toBe(1);
  });
});

describe("on PostgreSQL, an agent saved while its skill is being deleted", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
  });

  it("waits for the delete and is then refused (400), never stored naming a deleted skill", async () => {
    const store = await createStore(await openDriver(await postgres.createDatabase("skill_refs")));
    const ws = await ensureWorkspace(store.db, "default");
    const skill = await store.skills.create(ws, {
      name: "doomed",
      description: "d",
      head: { description: "d" },
      files: [{ path: "SKILL.md", content: new TextEncoder().encode("---\nname: doomed\n---\nx\n") }],
    });
    // A delete in progress, as skills.delete runs it: the skill's row locked, then the row deleted.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const deleting = store.db.transaction(async (tx) => {
      await tx.query("SELECT id FROM skills WHERE id = $1 FOR UPDATE", [skill.id]);
      locked();
      await held;
      await tx.query("DELETE FROM skills WHERE id = $1", [skill.id]);
    });
    try {
      await isLocked;
      const saving = store.agents
        .create(ws, {
          name: "late",
          description: null,
          model: { id: "m" },
          system: null,
          skills: [{ type: "custom", skill_id: skill.id, version: "latest" }],
          tools: [],
          mcp_servers: [],
          metadata: {},
          execution_identity: { type: "service_account" },
          multiagent: null,
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await expect
        .poll(async () => {
          const [row] = await store.db.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          );
          return row?.n;
        })
        .toBe(1);
      release();
      await deleting;
      expect(await saving).toMatchObject({
        status: 400,
        message: `skills: skill ${JSON.stringify(skill.id)} not found in this workspace`,
      });
      expect(await store.db.query("SELECT id FROM agents")).toEqual([]);
    } finally {
      release();
      await deleting.catch(() => {});
      await store.close();
    }
  }, 60_000);
});
