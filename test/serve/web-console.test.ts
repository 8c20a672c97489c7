import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { launchChromium } from "../support/browser.js";
import { TEST_API_KEY, textTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// The web page as a console (issue #46), in Chromium against a served app in this process and the scripted
// model: Markdown rendered and sanitized, control over running work, the session's timeline, the skills' views.

const WEB_DIR = fileURLToPath(new URL("../../src/serve/web/", import.meta.url));

/** Markdown that holds every way in the issue names: raw HTML with a handler, `javascript:` and `data:` links. */
const HOSTILE_MD = [
  "# Report",
  "",
  "Some **bold** text and a [safe link](https://example.com/docs).",
  "",
  '<img src=x onerror="window.__pwned = 1">',
  "",
  "[click me](javascript:window.__pwned=2) and [data](data:text/html,<script>window.__pwned=3</script>)",
  "",
  '<a href="javascript:window.__pwned=4">raw link</a> <svg onload="window.__pwned=5"></svg>',
  "",
  "<script>window.__pwned = 6</script>",
  "",
  '<p id="chat-log" style="color:red" onclick="window.__pwned=7">clobber</p>',
  "",
  "```js",
  "const x = '<b>not bold</b>';",
  "```",
  "",
  "- one",
  "- two",
].join("\n");

let tree: TmpTree;
let model: ModelServer;
let served: ServedApp;
let client: Anthropic;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "", "work/.keep": "" });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: { turns: [textTurn(HOSTILE_MD, { lastUserTextIncludes: "hostile answer" })] },
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
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.goto(`${served.url}/`);
  await page.fill("#api-key", "k");
  await page.click("#signin-form button[type=submit]");
  await page.waitForSelector("#nav:not([hidden])");
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await served?.close();
  await model?.close();
  await tree?.cleanup();
});

/** What a rendered Markdown block must (and must not) hold after the sanitizer. */
async function expectInert(selector: string) {
  const block = page.locator(selector);
  await block.waitFor();
  // Rendered: a heading, bold text, a list and a code block whose markup stays text.
  expect(await block.locator("h1").textContent()).toBe("Report");
  expect(await block.locator("strong").first().textContent()).toBe("bold");
  expect(await block.locator("li").count()).toBe(2);
  expect(await block.locator("pre code").textContent()).toContain("<b>not bold</b>");
  // Raw HTML in Markdown is shown as the text it is.
  expect(await block.textContent()).toContain('<img src=x onerror="window.__pwned = 1">');
  // Inert: nothing that loads or runs, no handler, no script address, no clobbered id, no inline style.
  expect(
    await block.locator("img, script, svg, iframe, [onerror], [onload], [onclick], [style], [id]").count(),
  ).toBe(0);
  const hrefs = await block.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs).toContain("https://example.com/docs");
  for (const href of hrefs) expect(href ?? "").not.toMatch(/^\s*(javascript|data):/i);
  expect(await block.locator("a[href^='https:']").getAttribute("rel")).toBe("noopener noreferrer");
  // Clicking what was a `javascript:` link runs nothing.
  await block.locator("a", { hasText: "click me" }).click();
  await block.getByText("clobber").click();
  expect(await page.evaluate("window.__pwned")).toBeUndefined();
  expect(await page.locator("[id=chat-log]").count()).toBeLessThanOrEqual(1);
}

describe("the web page as a console (issue #46)", () => {
  it("renders Markdown through the sanitizer: a message, a SKILL.md and a memory stay inert (served from this origin)", async () => {
    for (const path of ["/web/vendor/marked.js", "/web/vendor/purify.js"]) {
      const response = await fetch(`${served.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toContain("javascript");
      expect(response.headers.get("content-security-policy"), path).toContain("default-src 'self'");
    }
    // A message: the scripted model answers with the hostile Markdown.
    const environment = await client.beta.environments.create({ name: "xss" });
    const agent = await client.beta.agents.create({ name: "xss-agent", model: "claude-sonnet-4-6" });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "hostile",
    });
    await page.goto(`${served.url}/sessions/${session.id}`);
    await page.waitForSelector("#chat-log[data-stream=open]");
    await page.fill("#chat-input", "hostile answer");
    await page.click("#chat-form button[type=submit]");
    await expectInert("#chat-log .event.agent .markdown");

    // A skill: its SKILL.md body rendered beside its source.
    const skill = await client.beta.skills.create({
      files: [
        await toFile(
          Buffer.from(`---\nname: hostile\ndescription: Markdown that tries to run\n---\n${HOSTILE_MD}\n`),
          "hostile/SKILL.md",
        ),
      ],
    });
    await page.goto(`${served.url}/skills/${skill.id}/versions/${skill.latest_version_id}`);
    await expectInert("#skill-md-rendered");
    expect(await page.textContent("#skill-md")).toContain('<img src=x onerror="window.__pwned = 1">');

    // A memory whose path is Markdown.
    const store = await client.beta.memoryStores.create({ name: "hostile-notes" });
    const memory = await client.beta.memoryStores.memories.create(store.id, {
      path: "/hostile.md",
      content: HOSTILE_MD,
    });
    await page.goto(`${served.url}/memory/${store.id}/${memory.id}`);
    await expectInert("#memory-rendered");

    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    // Nothing was refused by the CSP (no inline style or script reached the DOM) and nothing failed to load.
    expect(pageErrors).toEqual([]);
  });
});
