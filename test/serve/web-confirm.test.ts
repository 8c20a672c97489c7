import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type Anthropic from "@anthropic-ai/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { launchChromium } from "../support/browser.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { toolResultSent } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// Tool confirmations in the web page: a served session with host tools in a temp dir, its agent `always_ask` on
// `write`, the scripted model calling Write; the page shows the waiting call and answers it through the events
// route, and the model server records what the model was sent.

const WEB_DIR = fileURLToPath(new URL("../../src/serve/web/", import.meta.url));

let tree: TmpTree;
let model: ModelServer;
let served: ServedApp;
let client: Anthropic;
let browser: Browser;
let page: Page;

const work = (name: string) => tree.path(`work/${name}`);

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "", "work/.keep": "" });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "Write",
          { file_path: work("asked.txt"), content: "<b>ASKED</b>" },
          { id: "toolu_ask", match: { lastUserTextIncludes: "write asked" } },
        ),
        textTurn("Wrote it.", { hasToolResultFor: "toolu_ask" }),
        toolTurn(
          "Write",
          { file_path: work("denied.txt"), content: "DENIED" },
          { id: "toolu_deny", match: { lastUserTextIncludes: "write denied" } },
        ),
        textTurn("Understood.", { hasToolResultFor: "toolu_deny" }),
      ],
    },
  });
  served = await startServedApp({
    runner: {
      client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url }),
      hostTools: { cwd: tree.path("work"), home: tree.path("home") },
    },
    readWebAsset: (name) => readFile(WEB_DIR + name, "utf8"),
  });
  client = served.client();
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(15_000);
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await served?.close();
  await model?.close();
  await tree?.cleanup();
});

async function say(text: string) {
  await page.fill("#chat-input", text);
  await page.click("#chat-form button[type=submit]");
}

describe("the web page's tool confirmations (always_ask on the host write tool)", () => {
  it("shows the waiting call; Allow runs it and the answer streams; Deny sends its message to the model", async () => {
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({
      name: "asker",
      model: "claude-sonnet-4-6",
      tools: [
        {
          type: "agent_toolset_20260401",
          default_config: { permission_policy: { type: "always_allow" } },
          configs: [{ name: "write", permission_policy: { type: "always_ask" } }],
        },
      ],
    });
    await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id, title: "asking" });

    await page.goto(`${served.url}/`);
    await page.fill("#api-key", "k");
    await page.click("#signin-form button[type=submit]");
    await page.click("nav [data-view=sessions]");
    await page.click(`#view a:text-is('asking')`);
    await page.waitForSelector("#chat-log[data-stream=open]");

    // Allow: the card shows the call and its input (as text), and the turn goes on.
    await say("write asked");
    const card = page.locator("#confirmations .confirm");
    await card.waitFor();
    expect(await page.textContent("#chat-status")).toBe("Status: idle (requires action)");
    expect(await card.locator(".confirm-name").textContent()).toBe("Write");
    const shown = JSON.parse((await card.locator(".confirm-input").textContent()) ?? "");
    expect(shown).toEqual({ file_path: work("asked.txt"), content: "<b>ASKED</b>" });
    expect(await page.locator("#chat-log b, #confirmations b").count()).toBe(0);
    expect(await page.textContent("#tool-calls")).toBe("Write — waiting for you");
    expect(existsSync(work("asked.txt"))).toBe(false);

    await card.locator("button.allow").click();
    await page.waitForSelector(".event.agent p:text-is('Wrote it.')");
    await page.waitForSelector("#chat-status:text-is('Status: idle')");
    expect(readFileSync(work("asked.txt"), "utf8")).toBe("<b>ASKED</b>");
    expect(await page.textContent("#chat-log")).toContain("You allowed Write");
    expect(await page.locator("#confirmations .confirm").count()).toBe(0);
    expect(await page.textContent("#tool-calls")).toBe("Write — done");

    // Deny with a message: the model gets it as the error result of its call.
    await say("write denied");
    await card.waitFor();
    await card.locator("input.deny-message").fill("NOT-TODAY");
    await card.locator("button.deny").click();
    await page.waitForSelector(".event.agent p:text-is('Understood.')");
    expect(existsSync(work("denied.txt"))).toBe(false);
    expect(toolResultSent(model, "toolu_deny")).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: "NOT-TODAY" }],
    });
    expect(await page.textContent("#chat-log")).toContain("You denied Write: NOT-TODAY");
    expect(await page.locator("#tool-calls li").allTextContents()).toEqual(["Write — done", "Write — error"]);
    expect(await page.textContent("#chat-error")).toBe("");
  });
});
