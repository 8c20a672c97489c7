import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { launchChromium } from "../support/browser.js";
import { httpFaultTurn, TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// The web page's Forks panel against the real engine: a served session (host tools in a temp dir) whose skill
// runs `context: fork`; the fork's Bash call waits for a file the test writes, so the page is seen showing the
// fork running (with its progress) before it shows its result; a second fork fails, and a reload lists both.

const WEB_DIR = fileURLToPath(new URL("../../src/serve/web/", import.meta.url));

let tree: TmpTree;
let model: ModelServer;
let served: ServedApp;
let client: Anthropic;
let browser: Browser;
let page: Page;

const gate = () => tree.path("work/gate");

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "", "work/.keep": "" });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "Skill",
          { skill: "research" },
          { match: { agentId: null, lastUserTextIncludes: "go research" } },
        ),
        toolTurn(
          "Bash",
          { command: `while [ ! -f '${gate()}' ]; do sleep 0.05; done; echo GATE-OPEN` },
          { id: "toolu_wait", match: { agentId: "*", lastUserTextIncludes: "RESEARCH-BODY" } },
        ),
        textTurn("fork found 42", { agentId: "*", hasToolResultFor: "toolu_wait" }),
        textTurn("All done.", {
          agentId: null,
          hasToolResultFor: "Skill",
          toolResultIncludes: "fork found 42",
        }),
        toolTurn(
          "Skill",
          { skill: "broken" },
          { match: { agentId: null, lastUserTextIncludes: "go broken" } },
        ),
        httpFaultTurn(400, { agentId: "*", lastUserTextIncludes: "BROKEN-BODY" }),
        textTurn("It failed.", { agentId: null, hasToolResultFor: "Skill", toolResultIncludes: "failed" }),
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

const skillFile = (name: string, body: string) =>
  toFile(
    Buffer.from(`---\nname: ${name}\ndescription: Forks ${name}\ncontext: fork\n---\n${body}\n`),
    `${name}/SKILL.md`,
  );

async function say(text: string) {
  await page.fill("#chat-input", text);
  await page.click("#chat-form button[type=submit]");
}

/** Opens the page (signing in unless the tab still holds the key) and the session titled `title`. */
async function openChat(title: string, signIn = true) {
  await page.goto(`${served.url}/`);
  if (signIn) {
    await page.fill("#api-key", "k");
    await page.click("#signin-form button[type=submit]");
  }
  await page.click("nav [data-view=sessions]");
  await page.click(`#view a:text-is('${title}')`);
  await page.waitForSelector("#chat-log[data-stream=open]");
}

describe("the web page's Forks panel with a served session's forks", () => {
  it("shows a fork running with its progress, then its result; a failing fork as failed; both after a reload", async () => {
    const research = await client.beta.skills.create({
      files: [await skillFile("research", "RESEARCH-BODY")],
    });
    const broken = await client.beta.skills.create({ files: [await skillFile("broken", "BROKEN-BODY")] });
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({
      name: "lead",
      model: "claude-sonnet-4-6",
      skills: [
        { type: "custom", skill_id: research.id },
        { type: "custom", skill_id: broken.id },
      ],
      tools: [
        { type: "agent_toolset_20260401", default_config: { permission_policy: { type: "always_allow" } } },
      ],
    });
    await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id, title: "forking" });
    await openChat("forking");

    await say("go research");
    // Live: the fork runs its Bash call (which waits for the gate file) and the panel says so.
    const running = page.locator("#forks li.fork[data-status=running]");
    await running.filter({ hasText: "(last: Bash)" }).waitFor();
    expect(await running.textContent()).toMatch(/^research: running, \d+ events \(last: Bash\)$/);
    writeFileSync(gate(), "");
    const done = page.locator("#forks li.fork[data-status=done]");
    await done.waitFor();
    expect(await done.textContent()).toMatch(/^research: done, \d+ events \(last: .+\) → fork found 42$/);
    await page.waitForSelector(".event.agent p:text-is('All done.')");
    expect(await page.textContent("#chat-log")).toContain("[research] fork found 42");

    await say("go broken");
    const failed = page.locator("#forks li.fork[data-status=failed]");
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(/^broken: failed, /);
    await page.waitForSelector(".event.agent p:text-is('It failed.')");

    // A new page lists the session's forks from the server.
    await openChat("forking", false);
    const items = page.locator("#forks li.fork");
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-status")))).toEqual([
      "done",
      "failed",
    ]);
    expect(await page.textContent("#chat-error")).toBe("");
  });
});
