import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { cli } from "../cli/run-cli.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { usePostgresAndTree } from "../support/postgres-tree.js";
import { all, apiError } from "../support/sdk-calls.js";
import { sayAndRead } from "../support/session-stream.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #28 items 3 and 4: the official SDK client, unchanged, attaches memory stores and files to a session,
// and a scripted model's file tools work on the session's mounts through the shipped bin's `serve`, without
// --host-tools: a Read of /mnt/memory/<store>/<path> returns the memory, a Write there makes a memory (an Edit
// a second version), /workspace is the session's own scratch space in the database, no host path is
// reachable, and Bash runs in the simulated sandbox over the same files. On PGlite and on PostgreSQL.

const KEY = "sk-test-mounts";
const NOTE = "/mnt/memory/team-notes/notes/today.md";

const setup = usePostgresAndTree({ "home/repo/.keep": "" });

/** The model's last request, as JSON. */
function lastRequest(model: ModelServer): string {
  return JSON.stringify(model.requests.at(-1)?.body ?? {});
}

const SCRIPT = [
  toolTurn(
    "Read",
    { file_path: "/mnt/memory/team-notes/prefs/editor.md" },
    {
      match: { lastUserTextIncludes: "read prefs" },
    },
  ),
  textTurn("Read it.", { hasToolResultFor: "Read", toolResultIncludes: "vim with tabs" }),
  toolTurn(
    "Write",
    { file_path: NOTE, content: "first draft\n" },
    { match: { lastUserTextIncludes: "write note" } },
  ),
  toolTurn(
    "Edit",
    { file_path: NOTE, old_string: "first", new_string: "second" },
    {
      match: { hasToolResultFor: "Write" },
    },
  ),
  textTurn("Noted.", { hasToolResultFor: "Edit" }),
  toolTurn(
    "Write",
    { file_path: "/workspace/scratch/plan.txt", content: "scratch plan\n" },
    {
      match: { lastUserTextIncludes: "use scratch" },
    },
  ),
  toolTurn(
    "Glob",
    { pattern: "**/*.md", path: "/mnt/memory/team-notes" },
    { match: { hasToolResultFor: "Write" } },
  ),
  toolTurn("Read", { file_path: "/workspace/scratch/plan.txt" }, { match: { hasToolResultFor: "Glob" } }),
  textTurn("Scratched.", { hasToolResultFor: "Read" }),
  toolTurn(
    "Write",
    { file_path: "/mnt/memory/frozen/x.md", content: "nope" },
    {
      match: { lastUserTextIncludes: "write frozen" },
    },
  ),
  toolTurn("Read", { file_path: "/etc/hostname" }, { match: { hasToolResultFor: "Write" } }),
  textTurn("Refused.", { hasToolResultFor: "Read" }),
  toolTurn("Read", { file_path: "/data/upload.txt" }, { match: { lastUserTextIncludes: "read upload" } }),
  textTurn("Uploaded file read.", { hasToolResultFor: "Read", toolResultIncludes: "UPLOADED-BYTES" }),
];

describe.each([
  ["PGlite", () => freshPgliteDir(setup.tree.path("pglite-mounts"))],
  ["PostgreSQL", async () => setup.postgres.createDatabase("mounts")],
])(
  "session resources and the file tools on their mounts through the official SDK on %s",
  (_name, location) => {
    let model: ModelServer;
    let server: ServeProcess;
    let client: Anthropic;
    let other: Anthropic;
    let sessionId: string;
    let storeId: string;
    let agentId: string;
    let environmentId: string;

    beforeAll(async () => {
      const db = await location();
      const made = await cli(setup.tree, ["keys", "create", "--workspace", "other", "--db", db]);
      expect(made.code).toBe(0);
      model = await startModelServer({ apiKey: TEST_API_KEY, script: { turns: SCRIPT } });
      server = await startServe(["--db", db, "--api-key", KEY], {
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.url,
      });
      client = sdkClient(server.url, KEY);
      other = sdkClient(server.url, made.stdout.trim());
      const environment = await client.beta.environments.create({ name: "e" });
      environmentId = environment.id;
      const agent = await client.beta.agents.create({
        name: "a",
        model: "claude-sonnet-5-5",
        system: "Be brief.",
      });
      agentId = agent.id;
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await model?.close();
    });

    it("attaches a memory store at sessions.create; Read returns a memory, Write and Edit make versions", async () => {
      const store = await client.beta.memoryStores.create({
        name: "Team Notes",
        description: "What we learned",
      });
      storeId = store.id;
      await client.beta.memoryStores.memories.create(store.id, {
        path: "/prefs/editor.md",
        content: "vim with tabs",
      });
      const frozen = await client.beta.memoryStores.create({ name: "Frozen" });
      const session = await client.beta.sessions.create({
        agent: agentId,
        environment_id: environmentId,
        resources: [
          { type: "memory_store", memory_store_id: store.id, instructions: "Keep team preferences here." },
          { type: "memory_store", memory_store_id: frozen.id, access: "read_only" },
        ],
      });
      sessionId = session.id;
      expect(session.resources).toMatchObject([
        {
          type: "memory_store",
          memory_store_id: store.id,
          mount_path: "/mnt/memory/team-notes",
          access: "read_write",
          name: "Team Notes",
          description: "What we learned",
          instructions: "Keep team preferences here.",
        },
        {
          type: "memory_store",
          memory_store_id: frozen.id,
          mount_path: "/mnt/memory/frozen",
          access: "read_only",
        },
      ]);

      const read = await sayAndRead(client, sessionId, "read prefs");
      expect(read.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });
      expect(JSON.stringify(read.find((e) => e.type === "agent.tool_result"))).toContain("vim with tabs");
      // The attachment's instructions are in the system prompt; the tools are the file tools and Bash (in the
      // simulated sandbox over the session's files, serve's default).
      const body = model.requests.at(-1)?.body as { system?: unknown; tools?: { name: string }[] };
      expect(JSON.stringify(body.system)).toContain("Keep team preferences here.");
      expect(JSON.stringify(body.system)).toContain("/mnt/memory/team-notes");
      const tools = (body.tools ?? []).map((t) => t.name);
      for (const name of ["Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS"])
        expect(tools).toContain(name);

      const wrote = await sayAndRead(client, sessionId, "write note");
      expect(
        wrote.filter((e) => e.type === "agent.tool_result").map((e) => "is_error" in e && e.is_error),
      ).toEqual([false, false]);
      const listed = await all(client.beta.memoryStores.memories.list(store.id, { view: "full" }));
      // Written whole: no temp-file memory beside it.
      expect(listed.flatMap((m) => (m.type === "memory" ? [m.path] : [])).sort()).toEqual([
        "/notes/today.md",
        "/prefs/editor.md",
      ]);
      const note = listed.find((m) => m.type === "memory" && m.path === "/notes/today.md");
      expect(note).toMatchObject({ type: "memory", content: "second draft\n" });
      const versions = await all(
        client.beta.memoryStores.memoryVersions.list(store.id, {
          memory_id: note?.type === "memory" ? note.id : "",
        }),
      );
      expect(versions).toHaveLength(2);
      expect(versions.map((v) => v.created_by)).toEqual([
        { type: "session_actor", session_id: sessionId },
        { type: "session_actor", session_id: sessionId },
      ]);
    }, 120_000);

    it("keeps /workspace in the database and lists the mounts with Glob", async () => {
      const events = await sayAndRead(client, sessionId, "use scratch");
      expect(events.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
      const results = events.flatMap((e) =>
        e.type === "agent.tool_result" ? [JSON.stringify(e.content)] : [],
      );
      expect(results[1]).toContain("today.md");
      expect(results[1]).toContain("editor.md");
      expect(results[2]).toContain("scratch plan");
    }, 120_000);

    it("refuses a write to a read-only mount and every host path, storing nothing", async () => {
      const events = await sayAndRead(client, sessionId, "write frozen");
      const results = events.flatMap((e) => (e.type === "agent.tool_result" ? [e] : []));
      expect(results.map((r) => r.is_error)).toEqual([true, true]);
      expect(JSON.stringify(results[0]?.content)).toMatch(/read-only|EROFS/);
      expect(JSON.stringify(results[1]?.content)).toMatch(/ENOENT|not exist|not found/i);
      const frozen = (await client.beta.sessions.retrieve(sessionId)).resources.find(
        (r) => r.type === "memory_store" && r.mount_path === "/mnt/memory/frozen",
      );
      const frozenId = frozen?.type === "memory_store" ? frozen.memory_store_id : "";
      expect(await all(client.beta.memoryStores.memories.list(frozenId))).toEqual([]);
    }, 120_000);

    it("adds, lists, retrieves and deletes a file resource; a later attachment is announced, not prompted", async () => {
      const uploaded = await client.beta.files.upload({
        file: await toFile(Buffer.from("UPLOADED-BYTES"), "u.txt"),
      });
      const added = await client.beta.sessions.resources.add(sessionId, {
        type: "file",
        file_id: uploaded.id,
      });
      expect(added).toMatchObject({
        type: "file",
        file_id: uploaded.id,
        mount_path: `/mnt/session/uploads/${uploaded.id}`,
      });
      const placed = await client.beta.sessions.resources.add(sessionId, {
        type: "file",
        file_id: uploaded.id,
        mount_path: "/data/upload.txt",
      });
      const listed = await all(client.beta.sessions.resources.list(sessionId));
      expect(listed.map((r) => r.type)).toEqual(["memory_store", "memory_store", "file", "file"]);
      expect(await client.beta.sessions.resources.retrieve(added.id, { session_id: sessionId })).toEqual(
        added,
      );

      const before = model.requests.at(-1)?.body as { system?: unknown };
      const events = await sayAndRead(client, sessionId, "read upload");
      expect(events.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
      expect(JSON.stringify(events.find((e) => e.type === "agent.tool_result"))).toContain("UPLOADED-BYTES");
      const last = model.requests.at(-1)?.body as { system?: unknown };
      // The prompt prefix is unchanged; the new mounts are announced in the turn's message.
      expect(JSON.stringify(last.system)).toBe(JSON.stringify(before.system));
      expect(lastRequest(model)).toContain("were attached to this session");
      expect(lastRequest(model)).toContain("/data/upload.txt");
      await client.beta.sessions.resources.delete(placed.id, { session_id: sessionId });

      expect(await client.beta.sessions.resources.delete(added.id, { session_id: sessionId })).toEqual({
        id: added.id,
        type: "session_resource_deleted",
      });
      expect(
        (await apiError(client.beta.sessions.resources.retrieve(added.id, { session_id: sessionId }))).status,
      ).toBe(404);
    }, 120_000);

    it("answers a resource naming another workspace's store or file with a 404, and makes no session", async () => {
      const before = (await all(client.beta.sessions.list())).length;
      const foreign = await other.beta.memoryStores.create({ name: "Theirs" });
      const error = await apiError(
        client.beta.sessions.create({
          agent: agentId,
          environment_id: environmentId,
          resources: [{ type: "memory_store", memory_store_id: foreign.id }],
        }),
      );
      expect(error.status).toBe(404);
      const theirFile = await other.beta.files.upload({ file: await toFile(Buffer.from("x"), "x.txt") });
      expect(
        (
          await apiError(
            client.beta.sessions.resources.add(sessionId, { type: "file", file_id: theirFile.id }),
          )
        ).status,
      ).toBe(404);
      const clash = await apiError(
        client.beta.sessions.create({
          agent: agentId,
          environment_id: environmentId,
          resources: [
            { type: "memory_store", memory_store_id: storeId },
            { type: "memory_store", memory_store_id: storeId },
          ],
        }),
      );
      expect(clash.status).toBe(400);
      expect((await all(client.beta.sessions.list())).length).toBe(before);
      expect((await all(client.beta.sessions.resources.list(sessionId))).length).toBe(2);
      const bad = await apiError(
        client.beta.sessions.resources.add(sessionId, {
          type: "file",
          file_id: (await client.beta.files.upload({ file: await toFile(Buffer.from("y"), "y.txt") })).id,
          mount_path: "/workspace/y.txt",
        }),
      );
      expect(bad.status).toBe(400);
    }, 120_000);
  },
);
