import { copyFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import sharp from "sharp";
import { afterEach, beforeAll, expect, it } from "vitest";
import { toolResultsOf } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

const WIDE = fileURLToPath(new URL("../fixtures/images/wide-3000x1200.png", import.meta.url));

beforeAll(() => {
  assertBuilt();
});

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
});

it("Read through the bin scales a 3000x1200 PNG down to 2000x800 (issue #31 item 4: sharp, loaded lazily)", async () => {
  tree = await tmpTree({ "home/.keep": "", "repo/.git": { dir: true } });
  await copyFile(WIDE, tree.path("repo/wide.png"));
  model = await startTestModel([
    toolTurn("Read", { file_path: "wide.png" }),
    textTurn("seen", { hasToolResultFor: "Read" }),
  ]);
  const run = await execa(
    process.execPath,
    [BIN, "--cwd", tree.path("repo"), "--home", tree.path("home"), "-p", "look at wide.png"],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: tree.path("home"),
        ANTHROPIC_BASE_URL: model.server.url,
        ANTHROPIC_API_KEY: TEST_API_KEY,
      },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    },
  );
  expect(run.exitCode, run.stderr).toBe(0);
  const [result] = toolResultsOf(model.server.requests[1]);
  const content = (result?.content ?? []) as { type: string; text?: string; source?: { data: string } }[];
  expect(content[0]?.text).toMatch(
    /^Read image wide\.png \[image\/png, 3\.5 KB, scaled from 3000x1200 to 2000x800 /,
  );
  const data = content.find((block) => block.type === "image")?.source?.data ?? "";
  const meta = await sharp(Buffer.from(data, "base64")).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["png", 2000, 800]);
});
