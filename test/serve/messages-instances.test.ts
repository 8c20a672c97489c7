import type Anthropic from "@anthropic-ai/sdk";
import { BadRequestError } from "@anthropic-ai/sdk";
import type { Message } from "@anthropic-ai/sdk/resources/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import {
  bashStdout,
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
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #49 on PostgreSQL: two `serve` processes (the shipped bin) on one database. A container made through one
// instance is reused through the other (its files and output files are in the database), streams there, and a
// third instance started with a 1 ms idle limit finds it expired, which every instance then answers.

const KEY = "sk-messages-pg";
const BASH = "bash_code_execution";

let postgres: TestPostgres;
let model: ModelServer;
let db: string;
const servers: ServeProcess[] = [];
let clientA: Anthropic;
let clientB: Anthropic;
let skillId: string;

/** Starts an instance on the test's database (`env` added to its environment). */
async function start(env: Record<string, string> = {}): Promise<ServeProcess> {
  const server = await startServe(["--db", db, "--api-key", KEY], {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.url,
    ...env,
  });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  postgres = await startPostgres();
  db = await postgres.createDatabase("messages");
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        callTurn(
          BASH,
          {
            command:
              "python3 /skills/calc/scripts/calc.py 2 3 4 --out /mnt/user-data/outputs/sum.json && " +
              "echo written-by-a > /mnt/user-data/from-a.txt",
          },
          { lastUserTextIncludes: "on instance a" },
        ),
        sayTurn("Done on A.", { hasToolResultFor: BASH, toolResultIncludes: "product" }),
        callTurn(
          BASH,
          { command: "cat /mnt/user-data/from-a.txt" },
          { lastUserTextIncludes: "on instance b" },
        ),
        sayTurn("Read on B.", { hasToolResultFor: BASH, toolResultIncludes: "written-by-a" }),
      ],
    },
  });
  clientA = sdkClient((await start()).url, KEY);
  clientB = sdkClient((await start()).url, KEY);
  skillId = await uploadCalc(clientA);
}, 180_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await model?.close();
  await postgres?.stop();
});

describe("the Messages API's containers on PostgreSQL with two instances", () => {
  let first: Message;

  it("reuses through instance B a container made through instance A, with its files and output files", async () => {
    first = await clientA.messages.create({
      model: MODEL,
      max_tokens: 1024,
      container: { skills: [{ type: "custom", skill_id: skillId, version: "latest" }] },
      tools: CODE_EXECUTION,
      messages: [{ role: "user", content: "add them on instance a" }],
    });
    expect(bashStdout(first)).toMatch(/"sum": 9/);
    const result = blockOf(first, "bash_code_execution_tool_result");
    if (result.content.type !== "bash_code_execution_result") throw new Error("no result");
    const [output] = result.content.content;
    if (output === undefined) throw new Error("no output file");
    // The output file made through A downloads through B.
    const downloaded = await (await clientB.beta.files.download(output.file_id)).text();
    expect(JSON.parse(downloaded)).toMatchObject({ sum: 9, product: 24 });

    const stream = clientB.messages.stream({
      model: MODEL,
      max_tokens: 1024,
      container: { id: first.container?.id ?? "", skills: [{ type: "custom", skill_id: skillId }] },
      tools: CODE_EXECUTION,
      messages: [{ role: "user", content: "read it on instance b" }],
    });
    const second = await stream.finalMessage();
    expect(second.container?.id).toBe(first.container?.id);
    expect(types(second.content)).toEqual(["server_tool_use", "bash_code_execution_tool_result", "text"]);
    expect(bashStdout(second)).toContain("written-by-a");
  });

  it("answers an expired container as expired on every instance", async () => {
    // An instance with a 1 ms idle limit: the container, last used by the request above, is past it.
    const strict = sdkClient((await start({ SKILLWRIGHT_CONTAINER_IDLE_MS: "1" })).url, KEY);
    const ask = (client: Anthropic) =>
      client.messages
        .create({
          model: MODEL,
          max_tokens: 100,
          container: first.container?.id ?? "",
          tools: CODE_EXECUTION,
          messages: [{ role: "user", content: "anything" }],
        })
        .catch((error: unknown) => error);
    const expired = await ask(strict);
    expect(expired).toBeInstanceOf(BadRequestError);
    expect(said(expired)).toContain("has expired");
    // Its files are gone and its id stays expired, whatever limit the instance asked has.
    const again = await ask(clientA);
    expect(again).toBeInstanceOf(BadRequestError);
    expect(said(again)).toContain("has expired");
  });
});
