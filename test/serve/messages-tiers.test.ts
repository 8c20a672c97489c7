import type Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import {
  bashStdout,
  blockOf,
  CODE_EXECUTION,
  callTurn,
  MODEL,
  sayTurn,
  uploadCalc,
} from "../support/messages-exchange.js";
import { TEST_API_KEY } from "../support/model-server.js";
import { osTierMissing } from "../support/os-tier.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #49: a container's code runs in the tier the operator chose, through the shipped bin and the SDK client:
// `--sandbox os` runs the host's python3 (PyYAML, which the simulated tier lacks) under bubblewrap over the
// container's files, `--sandbox none` runs nothing (the `unavailable` error), and only `--host-tools` runs on
// the host, in serve's cwd.

const KEY = "sk-messages-tiers";
const BASH = "bash_code_execution";
const MISSING = osTierMissing();
if (MISSING !== undefined) console.warn(`messages-tiers: skipping the os-tier container test: ${MISSING}`);

let tree: TmpTree;
let model: ModelServer;
let db: string;
let server: ServeProcess | undefined;
let client: Anthropic;
let skillId: string;

/** (Re)starts serve on the test's database with `args`, in the tree's `cwd` folder. */
async function serve(args: string[]): Promise<void> {
  await server?.stop();
  server = await startServe(
    ["--db", db, "--api-key", KEY, ...args],
    { ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.url },
    tree.path("cwd"),
  );
  client = sdkClient(server.url, KEY);
}

/** One request naming the calc skill, whose text is `ask`. */
function ask(text: string, container?: string) {
  return client.messages.create({
    model: MODEL,
    max_tokens: 1024,
    container: { id: container, skills: [{ type: "custom", skill_id: skillId }] },
    tools: CODE_EXECUTION,
    messages: [{ role: "user", content: text }],
  });
}

beforeAll(async () => {
  tree = await tmpTree({ "cwd/.keep": "" });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        callTurn(
          BASH,
          {
            command:
              "pwd; python3 -c 'import yaml; print(\"YAML\", yaml.__version__)'; head -2 /skills/calc/SKILL.md; " +
              "echo from-os > /mnt/user-data/outputs/os.txt; echo kept-by-os > notes.txt",
          },
          { lastUserTextIncludes: "os tier" },
        ),
        sayTurn("Ran in the os tier.", { hasToolResultFor: BASH, toolResultIncludes: "YAML" }),
        callTurn(BASH, { command: "cat notes.txt" }, { lastUserTextIncludes: "read back" }),
        sayTurn("Read back.", { hasToolResultFor: BASH, toolResultIncludes: "kept-by-os" }),
        callTurn(BASH, { command: "echo never" }, { lastUserTextIncludes: "tier none" }),
        sayTurn("Nothing ran.", { hasToolResultFor: BASH }),
        callTurn(BASH, { command: "pwd" }, { lastUserTextIncludes: "host tools" }),
        sayTurn("On the host.", { hasToolResultFor: BASH }),
      ],
    },
  });
  db = await freshPgliteDir(tree.path("data"));
  await serve([]);
  skillId = await uploadCalc(client);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await model?.close();
  await tree?.cleanup();
});

describe("where a container's code runs", () => {
  it.skipIf(MISSING !== undefined)(
    "--sandbox os: the host's python3 under bubblewrap over the container's files, kept for the next tier",
    async () => {
      await serve(["--sandbox", "os"]);
      const message = await ask("run it in the os tier");
      const stdout = bashStdout(message);
      expect(stdout).toMatch(/^\/mnt\/user-data\n/);
      expect(stdout).toMatch(/YAML \d/);
      expect(stdout).toContain("name: calc");
      const result = blockOf(message, "bash_code_execution_tool_result");
      if (result.content.type !== "bash_code_execution_result") throw new Error("no result");
      const [output] = result.content.content;
      expect(output).toBeDefined();
      const text = await (await client.beta.files.download(output?.file_id ?? "")).text();
      expect(text).toBe("from-os\n");
      // The files were written back to the database: the default tier reads them in the same container.
      await serve([]);
      expect(bashStdout(await ask("read back", message.container?.id))).toBe("kept-by-os\n");
    },
    180_000,
  );

  it("--sandbox none: no command runs; the result is the unavailable error", async () => {
    await serve(["--sandbox", "none"]);
    const message = await ask("tier none");
    expect(blockOf(message, "bash_code_execution_tool_result").content).toEqual({
      type: "bash_code_execution_tool_result_error",
      error_code: "unavailable",
    });
  }, 120_000);

  it("--host-tools: commands run on the host, in serve's cwd", async () => {
    await serve(["--host-tools"]);
    expect(bashStdout(await ask("host tools"))).toBe(`${tree.path("cwd")}\n`);
  }, 120_000);
});
