import type Anthropic from "@anthropic-ai/sdk";
import { BadRequestError, ConflictError, NotFoundError } from "@anthropic-ai/sdk";
import type { Message, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import {
  blockOf,
  CODE_EXECUTION,
  callTurn,
  MODEL,
  said,
  sayTurn,
  types,
  uploadCalc,
} from "../support/messages-exchange.js";
import { TEST_API_KEY } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #49, through the shipped bin's `serve` on PGlite, the official SDK client unchanged and the scripted
// model: messages.create with container.skills and the code execution tool runs an uploaded skill's script in
// the container (the simulated tier), returns its output in a bash_code_execution_tool_result, hands back the
// file it wrote under the outputs folder as a Files API file, reuses the container in a second request (beta
// entry point) that reads a file the first wrote, streams a third exchange, refuses Anthropic's own skills and
// unserved tool versions, and answers an expired container and a full one as documented.

const KEY = "sk-messages";

let tree: TmpTree;
let model: ModelServer;
let db: string;
let server: ServeProcess | undefined;
let client: Anthropic;
let skillId: string;

/** The upstream requests as the scripted server saw them. */
function upstreamBodies(): Array<{
  tools?: Array<{ name: string; type?: string }>;
  messages: unknown[];
  system?: unknown;
}> {
  return model.requests.map((r) => r.body as never);
}

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "" });
  const bash = "bash_code_execution";
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        callTurn(
          bash,
          {
            command:
              "head -3 /skills/calc/SKILL.md && python3 /skills/calc/scripts/calc.py 6 7 " +
              "--out /mnt/user-data/outputs/result.json && echo kept-from-first > /mnt/user-data/notes.txt",
          },
          { lastUserTextIncludes: "multiply 6 and 7", systemIncludes: "/skills/calc/SKILL.md" },
        ),
        sayTurn("The product is 42.", { hasToolResultFor: bash, toolResultIncludes: "product" }),
        callTurn(
          "text_editor_code_execution",
          { command: "view", path: "/mnt/user-data/notes.txt" },
          { lastUserTextIncludes: "read the notes" },
        ),
        sayTurn("The notes say kept.", {
          hasToolResultFor: "text_editor_code_execution",
          toolResultIncludes: "kept-from-first",
        }),
        callTurn(
          bash,
          { command: "cat /mnt/user-data/notes.txt; ls /skills" },
          { lastUserTextIncludes: "stream it" },
        ),
        sayTurn("Streamed.", { hasToolResultFor: bash, toolResultIncludes: "kept-from-first" }),
        // Held mid-stream until its client goes: the container stays held meanwhile.
        {
          ...sayTurn("Held.", { lastUserTextIncludes: "hold it" }),
          fault: { kind: "stall", afterEvents: 1 },
        },
        sayTurn("Free again.", { lastUserTextIncludes: "is it free" }),
        callTurn(
          bash,
          { command: "printf '%0100d' 0 > /mnt/user-data/big.txt; echo WROTE" },
          { lastUserTextIncludes: "fill it" },
        ),
        sayTurn("Full.", { hasToolResultFor: bash }),
      ],
    },
  });
  db = await freshPgliteDir(tree.path("data"));
  server = await startServe(
    ["--db", db, "--api-key", KEY],
    { ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.url, HOME: tree.path("home") },
    tree.path("home"),
  );
  client = sdkClient(server.url, KEY);
  skillId = await uploadCalc(client);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await model?.close();
  await tree?.cleanup();
});

describe("POST /v1/messages with container.skills and code execution (PGlite, dist/bin)", () => {
  let first: Message;
  const ask: MessageParam = { role: "user", content: "multiply 6 and 7" };

  it("runs the skill's script in a container and returns its output in the code execution result", async () => {
    first = await client.messages.create({
      model: MODEL,
      max_tokens: 1024,
      container: { skills: [{ type: "custom", skill_id: skillId, version: "latest" }] },
      tools: CODE_EXECUTION,
      messages: [ask],
    });
    expect(types(first.content)).toEqual(["server_tool_use", "bash_code_execution_tool_result", "text"]);
    const call = blockOf(first, "server_tool_use");
    expect(call.name).toBe("bash_code_execution");
    const result = blockOf(first, "bash_code_execution_tool_result");
    expect(result.tool_use_id).toBe(call.id);
    if (result.content.type !== "bash_code_execution_result") throw new Error(JSON.stringify(result.content));
    expect(result.content.return_code).toBe(0);
    expect(result.content.stdout).toContain("name: calc");
    expect(result.content.stdout).toMatch(/"product": 42/);
    expect(blockOf(first, "text").text).toBe("The product is 42.");
    expect(first.stop_reason).toBe("end_turn");
    expect(first.container?.id).toMatch(/^container_/);
    expect(Date.parse(first.container?.expires_at ?? "")).toBeGreaterThan(Date.now());
    expect(first.container?.skills).toEqual([
      { type: "custom", skill_id: skillId, version: expect.stringMatching(/^skillver_/) },
    ]);
    // Usage is the two upstream calls' sum.
    expect(first.usage.input_tokens).toBe(300);
    expect(first.usage.output_tokens).toBe(30);
    // The upstream model was offered a shell and an editor as client tools, never the server tool.
    const upstream = upstreamBodies()[0];
    expect(upstream?.tools?.map((t) => t.name)).toEqual([
      "bash_code_execution",
      "text_editor_code_execution",
    ]);
    expect(JSON.stringify(upstream?.tools)).not.toContain("code_execution_2025");
    expect(JSON.stringify(upstream?.system)).toContain("calc: Sums, averages and multiplies");
  });

  it("hands the file the script wrote under the outputs folder back as a Files API file", async () => {
    const result = blockOf(first, "bash_code_execution_tool_result");
    if (result.content.type !== "bash_code_execution_result") throw new Error("no result");
    const [output] = result.content.content;
    if (output === undefined) throw new Error("no output file");
    const meta = await client.beta.files.retrieveMetadata(output.file_id);
    expect(meta.filename).toBe("result.json");
    expect(meta.mime_type).toBe("application/json");
    const downloaded = await (await client.beta.files.download(output.file_id)).text();
    expect(JSON.parse(downloaded)).toMatchObject({ count: 2, sum: 13, product: 42 });
  });

  it("reuses the container through client.beta.messages: a file the first request wrote is there", async () => {
    const second = await client.beta.messages.create({
      model: MODEL,
      max_tokens: 1024,
      betas: ["code-execution-2025-08-25", "skills-2025-10-02"],
      container: { id: first.container?.id, skills: [{ type: "custom", skill_id: skillId }] },
      tools: CODE_EXECUTION,
      messages: [
        ask,
        { role: "assistant", content: first.content as never },
        { role: "user", content: "read the notes" },
      ],
    });
    expect(second.container?.id).toBe(first.container?.id);
    const view = second.content.find((b) => b.type === "text_editor_code_execution_tool_result");
    expect(JSON.stringify(view)).toContain("kept-from-first");
    expect(second.content.at(-1)).toMatchObject({ type: "text", text: "The notes say kept." });
    // The first exchange reached the model again as the tool round trip it was.
    const body = upstreamBodies().find((b) => JSON.stringify(b.messages).includes("read the notes"));
    const history = JSON.stringify(body?.messages);
    expect(history).toContain('"type":"tool_use"');
    expect(history).toContain('"name":"bash_code_execution"');
    expect(history).toContain('"type":"tool_result"');
    expect(history).not.toContain("server_tool_use");
  });

  it("streams an exchange as the SDK's MessageStream reads it", async () => {
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 1024,
      container: { id: first.container?.id ?? "", skills: [{ type: "custom", skill_id: skillId }] },
      tools: CODE_EXECUTION,
      messages: [{ role: "user", content: "stream it" }],
    });
    const seen: string[] = [];
    const deltas: string[] = [];
    stream.on("streamEvent", (event) => seen.push(event.type));
    stream.on("text", (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(seen[0]).toBe("message_start");
    expect(seen.at(-1)).toBe("message_stop");
    expect(types(message.content)).toEqual(["server_tool_use", "bash_code_execution_tool_result", "text"]);
    expect(blockOf(message, "server_tool_use").input).toEqual({
      command: "cat /mnt/user-data/notes.txt; ls /skills",
    });
    const result = blockOf(message, "bash_code_execution_tool_result");
    if (result.content.type !== "bash_code_execution_result") throw new Error("no result");
    expect(result.content.stdout).toContain("kept-from-first");
    expect(result.content.stdout).toContain("calc");
    expect(message.container?.id).toBe(first.container?.id);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.output_tokens).toBe(30);
    // The model's text came on as the upstream model streamed it, in several deltas.
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Streamed.");
  });

  it("runs one request in a container at a time: another naming it meanwhile gets a 409, then it is free", async () => {
    const id = first.container?.id ?? "";
    const using = (text: string) =>
      client.messages.create({
        model: MODEL,
        max_tokens: 100,
        container: id,
        tools: CODE_EXECUTION,
        messages: [{ role: "user", content: text }],
      });
    const leaving = new AbortController();
    const held = client.messages
      .stream(
        {
          model: MODEL,
          max_tokens: 100,
          container: id,
          tools: CODE_EXECUTION,
          messages: [{ role: "user", content: "hold it" }],
        },
        { signal: leaving.signal },
      )
      .finalMessage()
      .catch((error: unknown) => error);
    await expect.poll(() => model.requests.some((r) => r.stalled)).toBe(true);
    const refused = await using("is it free?").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(said(refused)).toBe(
      `container "${id}" is in use by another request: send this one once that request has ended ` +
        "(one request runs in a container at a time)",
    );
    // The held request's client goes: serve stops its turn and releases the container.
    leaving.abort();
    await held;
    await expect
      .poll(async () => {
        const answer = await using("is it free?").catch((error: unknown) => error);
        if (answer instanceof ConflictError) return "busy";
        if (answer instanceof Error) throw answer;
        return blockOf(answer as Message, "text").text;
      })
      .toBe("Free again.");
  });

  it("answers Anthropic's own skills with a 404 naming what is missing", async () => {
    const refused = await client.messages
      .create({
        model: MODEL,
        max_tokens: 100,
        container: { skills: [{ type: "anthropic", skill_id: "pptx", version: "latest" }] },
        tools: CODE_EXECUTION,
        messages: [{ role: "user", content: "make slides" }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NotFoundError);
    expect(said(refused)).toMatch(/"pptx" is an Anthropic skill.*client\.beta\.skills\.create/);
  });

  it("answers an unserved code execution version with a 400 naming the served ones", async () => {
    const refused = await client.messages
      .create({
        model: MODEL,
        max_tokens: 100,
        tools: [{ type: "code_execution_20250522", name: "code_execution" }],
        messages: [{ role: "user", content: "run python" }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(said(refused)).toContain("code_execution_20250522");
    expect(said(refused)).toContain("code_execution_20250825 and code_execution_20260120");
  });

  it("expires an idle container (its id answers 400) and refuses writes past the size cap", async () => {
    await server?.stop();
    // Restarted with a 1 ms idle limit: the container last used before the restart has expired.
    server = await startServe(
      ["--db", db, "--api-key", KEY],
      {
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.url,
        HOME: tree.path("home"),
        SKILLWRIGHT_CONTAINER_IDLE_MS: "1",
        SKILLWRIGHT_CONTAINER_MAX_BYTES: "64",
      },
      tree.path("home"),
    );
    client = sdkClient(server.url, KEY);
    const expired = await client.messages
      .create({
        model: MODEL,
        max_tokens: 100,
        container: first.container?.id ?? "",
        tools: CODE_EXECUTION,
        messages: [{ role: "user", content: "anything" }],
      })
      .catch((error: unknown) => error);
    expect(expired).toBeInstanceOf(BadRequestError);
    expect(said(expired)).toContain(`container "${first.container?.id}" has expired`);
    const full = await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      tools: CODE_EXECUTION,
      messages: [{ role: "user", content: "fill it" }],
    });
    const result = blockOf(full, "bash_code_execution_tool_result");
    if (result.content.type !== "bash_code_execution_result") throw new Error(JSON.stringify(result.content));
    expect(result.content.stderr).toMatch(/enospc/i);
    expect(result.content.stderr).toContain("the container's files may hold 64 bytes in all");
    expect(result.content.stdout).not.toContain("WROTE");
    expect(full.container?.skills).toBeNull();
  });
});
