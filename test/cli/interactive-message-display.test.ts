/**
 * `MessageDisplay` hooks in the interactive mode (issue #44), as `-p` has them: each main-agent message is shown
 * as the hook's `displayContent`, the conversation keeps the original, and without such a hook the text streams
 * as before. Driven through the interactive mode's own harness (test/support/interactive-steps.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { runSteps } from "../support/interactive-steps.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  tree = model = undefined;
});

// Answers each message's text without the markdown bold markers.
const STRIP_BOLD =
  'import json, sys; d = json.load(sys.stdin); print(json.dumps({"hookSpecificOutput": ' +
  '{"hookEventName": "MessageDisplay", "displayContent": d["delta"].replace("**", "")}}))';

const turns = () => [
  toolTurn("Read", { file_path: "notes.txt" }, { text: "**Reading** the notes" }),
  textTurn("**Done** reading", { hasToolResultFor: "Read" }),
];

async function run(settings: object | undefined) {
  tree = await tmpTree({
    "repo/.git": { dir: true },
    "repo/notes.txt": "alpha\n",
    "home/.keep": "",
    ...(settings === undefined ? {} : { "repo/.claude/settings.local.json": JSON.stringify(settings) }),
  });
  model = await startTestModel(turns());
  return runSteps(tree, model.server.url, [{ line: "read the notes" }]);
}

describe("MessageDisplay in the interactive mode", () => {
  it("shows each message as the hook's displayContent, in order with the tool lines; the model keeps the original", async () => {
    const result = await run({
      hooks: { MessageDisplay: [{ hooks: [{ type: "command", command: `python3 -c '${STRIP_BOLD}'` }] }] },
    });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).not.toContain("**");
    const first = out.indexOf("Reading the notes");
    const last = out.indexOf("Done reading");
    expect(first).toBeGreaterThan(-1);
    expect(last).toBeGreaterThan(first);
    expect(out.slice(first, last)).toContain("Read");
    // The second request carries the first message as the model wrote it.
    const second = JSON.stringify(model?.server.requests.filter((r) => r.path === "/v1/messages")[1]?.body);
    expect(second).toContain("**Reading** the notes");
  }, 120_000);

  it("without a MessageDisplay hook the text is shown as the model wrote it", async () => {
    const result = await run(undefined);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("**Reading** the notes");
    expect(result.stdout).toContain("**Done** reading");
  }, 120_000);
});
