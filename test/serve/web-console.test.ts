import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { artifactsDir, axeViolations, screenshot } from "../support/axe.js";
import { launchChromium } from "../support/browser.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, type StreamEvent, userMessage } from "../support/session-stream.js";
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

/** The operator's price table of this served app: US dollars per million tokens. */
const SONNET_PRICE = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

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
    script: {
      turns: [
        textTurn(HOSTILE_MD, { lastUserTextIncludes: "hostile answer" }),
        // A fork, then a background fork (their skills are uploaded by the timeline's test).
        toolTurn("Skill", { skill: "digger" }, { match: { agentId: null, lastUserTextIncludes: "go dig" } }),
        textTurn("dug **deep**", { agentId: "*", lastUserTextIncludes: "DIGGER-BODY" }),
        textTurn("Dug it.", { agentId: null, hasToolResultFor: "Skill", toolResultIncludes: "dug" }),
        toolTurn(
          "Skill",
          { skill: "survey" },
          { match: { agentId: null, lastUserTextIncludes: "go survey" } },
        ),
        textTurn("BG-ANSWER 7", { agentId: "*", lastUserTextIncludes: "SURVEY-BODY" }),
        textTurn("Thanks: got it.", { agentId: null, lastUserTextIncludes: "BG-ANSWER" }),
        textTurn("Started.", { agentId: null, hasToolResultFor: "Skill", toolResultIncludes: '"survey"' }),
        textTurn("Still here.", { lastUserTextIncludes: "after ten thousand" }),
        // An inline skill that expires: invoked in one turn, stubbed two turns later (`ttl-turns: 1`).
        toolTurn("Skill", { skill: "jotter" }, { match: { agentId: null, lastUserTextIncludes: "go jot" } }),
        textTurn("Jotted.", { agentId: null, lastUserTextIncludes: "JOTTER-BODY" }),
        textTurn("Noted one.", { agentId: null, lastUserTextIncludes: "note one" }),
        textTurn("Noted two.", { agentId: null, lastUserTextIncludes: "note two" }),
        // A turn that runs until it is stopped: its Bash call waits for a file no one writes.
        toolTurn(
          "Bash",
          { command: `while [ ! -f '${tree.path("work/never")}' ]; do sleep 0.05; done` },
          { id: "toolu_long", match: { lastUserTextIncludes: "long job" } },
        ),
      ],
    },
  });
  served = await startServedApp({
    runner: {
      client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url }),
      hostTools: { cwd: tree.path("work"), home: tree.path("home") },
    },
    readWebAsset: (name) => readFile(WEB_DIR + name, "utf8"),
    prices: { "claude-sonnet-4-6": SONNET_PRICE },
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

  it("stops a running turn (user.interrupt) from the page", async () => {
    const environment = await client.beta.environments.create({ name: "stop" });
    const agent = await client.beta.agents.create({
      name: "worker",
      model: "claude-sonnet-4-6",
      tools: [
        { type: "agent_toolset_20260401", default_config: { permission_policy: { type: "always_allow" } } },
      ],
    });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "stoppable",
    });
    await page.goto(`${served.url}/sessions/${session.id}`);
    await page.waitForSelector("#chat-log[data-stream=open]");
    expect(await page.isDisabled("#chat-stop")).toBe(true);
    await page.fill("#chat-input", "long job");
    await page.click("#chat-form button[type=submit]");
    // Running: the Bash call waits, and Stop is offered.
    await page.locator("#tool-calls li", { hasText: "Bash — running" }).waitFor();
    await page.waitForSelector("#chat-stop:not([disabled])");
    await page.click("#chat-stop");
    await expect.poll(() => page.textContent("#chat-status")).toBe("Status: idle");
    expect(await page.textContent("#chat-log")).toContain("You stopped the turn.");
    expect(await page.isDisabled("#chat-stop")).toBe(true);
    expect((await client.beta.sessions.retrieve(session.id)).status).toBe("idle");
    const events = await client.beta.sessions.events.list(session.id, { limit: 100 });
    expect(events.data.map((e) => e.type)).toContain("user.interrupt");
  });

  it("archives and deletes through a confirmation, and says a 409's reason in words with nothing changed", async () => {
    const environment = await client.beta.environments.create({ name: "control" });
    const skill = await client.beta.skills.create({
      files: [
        await toFile(Buffer.from("---\nname: kept\ndescription: In use\n---\nBody\n"), "kept/SKILL.md"),
      ],
    });
    const agent = await client.beta.agents.create({
      name: "user-of-kept",
      model: "claude-sonnet-4-6",
      skills: [{ type: "custom", skill_id: skill.id }],
    });
    const archived = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "to archive",
    });
    const deleted = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "to delete",
    });
    const dialog = page.locator("dialog.confirm-dialog");

    // Archive: Cancel (the focused choice) changes nothing; confirmed, the session is archived.
    await page.goto(`${served.url}/sessions/${archived.id}`);
    await page.click("#session-archive");
    await dialog.waitFor();
    expect(await dialog.locator("h2").textContent()).toBe("Archive this session?");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Cancel");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect((await client.beta.sessions.retrieve(archived.id)).archived_at).toBeNull();
    await page.click("#session-archive");
    await dialog.locator("button.confirm-action").click();
    await page.waitForURL(`${served.url}/sessions`);
    expect((await client.beta.sessions.retrieve(archived.id)).archived_at).not.toBeNull();

    // Delete a session.
    await page.goto(`${served.url}/sessions/${deleted.id}`);
    await page.click("#session-delete");
    await dialog.locator("button.confirm-action").click();
    await page.waitForURL(`${served.url}/sessions`);
    await page.waitForSelector("#session-form");
    expect(await page.locator("#view a", { hasText: "to delete" }).count()).toBe(0);
    await expect(client.beta.sessions.retrieve(deleted.id)).rejects.toMatchObject({ status: 404 });

    // A skill an agent uses: the 409 in words, the skill kept.
    await page.goto(`${served.url}/skills/${skill.id}`);
    await page.click("#skill-delete");
    await dialog.locator("button.confirm-action").click();
    await page.waitForSelector("#error:not([hidden])");
    const said = (await page.textContent("#error")) ?? "";
    expect(said).toContain("Could not delete skill: It cannot be done now: ");
    expect(said).toContain("is used by 1 agent");
    expect(said).toContain("(409 conflict_error)");
    expect((await client.beta.skills.retrieve(skill.id)).id).toBe(skill.id);
    expect(await page.isEnabled("#skill-delete")).toBe(true);

    // Archive the agent on the Agents page; then the skill can go.
    await page.click("nav [data-view=agents]");
    await page.click(`[data-archive-agent="${agent.id}"]`);
    await dialog.locator("button.confirm-action").click();
    await page.waitForSelector(`[data-archive-agent="${agent.id}"]`, { state: "detached" });
    expect((await client.beta.agents.retrieve(agent.id)).archived_at).not.toBeNull();
    await page.goto(`${served.url}/skills/${skill.id}`);
    await page.click("#skill-delete");
    await dialog.locator("button.confirm-action").click();
    await page.waitForURL(`${served.url}/skills`);
    await expect(client.beta.skills.retrieve(skill.id)).rejects.toMatchObject({ status: 404 });

    // A file.
    const file = await client.beta.files.upload({ file: await toFile(Buffer.from("bye"), "bye.txt") });
    await page.click("nav [data-view=files]");
    await page.click(`[data-delete-file="${file.id}"]`);
    await dialog.locator("button.confirm-action").click();
    await page.waitForSelector(`[data-delete-file="${file.id}"]`, { state: "detached" });
    await expect(client.beta.files.retrieveMetadata(file.id)).rejects.toMatchObject({ status: 404 });
  });

  it("shows a session's timeline: forks nested and opened live, skill modes, calls with input and result, tokens, filters", async () => {
    const forkSkill = (name: string, body: string, background: boolean) =>
      toFile(
        Buffer.from(
          `---\nname: ${name}\ndescription: Runs ${name}\ncontext: fork\n${background ? "background: true\n" : ""}---\n${body}\n`,
        ),
        `${name}/SKILL.md`,
      );
    const digger = await client.beta.skills.create({
      files: [await forkSkill("digger", "DIGGER-BODY", false)],
    });
    const survey = await client.beta.skills.create({
      files: [await forkSkill("survey", "SURVEY-BODY", true)],
    });
    const environment = await client.beta.environments.create({ name: "timeline" });
    const agent = await client.beta.agents.create({
      name: "lead",
      model: "claude-sonnet-4-6",
      skills: [
        { type: "custom", skill_id: digger.id },
        { type: "custom", skill_id: survey.id },
      ],
    });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "timeline",
    });
    await page.goto(`${served.url}/sessions/${session.id}`);
    await page.waitForSelector("#chat-log[data-stream=open]");
    expect(await page.textContent("#usage-total")).toBe("No model requests yet.");

    // A fork: its thread is a block in the timeline, opened while the page follows the stream.
    await page.fill("#chat-input", "go dig");
    await page.click("#chat-form button[type=submit]");
    const fork = page.locator("#chat-log details.thread");
    await fork.first().waitFor();
    await fork.first().locator("summary").click();
    await page.waitForSelector(".event.agent p:text-is('Dug it.')");
    expect(await fork.first().locator("summary").textContent()).toMatch(/^Fork digger: done, \d+ events$/);
    // The fork's answer, rendered, inside its thread.
    expect(await fork.first().locator(".thread-events .event.agent strong").textContent()).toBe("deep");
    expect(await fork.first().locator(".thread-events .event.agent").isVisible()).toBe(true);
    const digCall = page.locator("#chat-log > .entry[data-kind=skill]").first();
    expect(await digCall.locator(".skill-mode").textContent()).toBe("fork");
    // The call's input and result side by side.
    await digCall.locator("details.call summary").click();
    expect(JSON.parse((await digCall.locator(".call-input").textContent()) ?? "")).toEqual({
      skill: "digger",
    });
    expect(await digCall.locator(".call-result").textContent()).toContain("dug **deep**");
    // Every entry has a human time, the ISO on hover.
    const stamp = page.locator("#chat-log > .entry > time").first();
    expect(await stamp.getAttribute("title")).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await stamp.textContent()).not.toContain("T");

    // A background fork: the Skill call is answered with the handle at once.
    await page.fill("#chat-input", "go survey");
    await page.click("#chat-form button[type=submit]");
    await page.waitForSelector(".event.agent p:text-is('Thanks: got it.')");
    await page.waitForSelector("#chat-status:text-is('Status: idle')");
    const surveyCall = page.locator("#chat-log > .entry[data-kind=skill]").nth(1);
    expect(await surveyCall.locator(".skill-mode").textContent()).toBe("background");
    expect(await fork.count()).toBe(2);

    // Tokens: a line per turn, and the total is the sum of the session's model requests.
    await expect.poll(() => page.locator("#chat-log .event.usage").count()).toBe(2);
    const events = await client.beta.sessions.events.list(session.id, { limit: 1000 });
    let input = 0;
    let output = 0;
    let usd = 0;
    for (const e of events.data) {
      if (e.type !== "span.model_request_end") continue;
      const u = e.model_usage;
      input += u.input_tokens + (u.cache_creation_input_tokens ?? 0);
      output += u.output_tokens;
      usd +=
        (u.input_tokens * SONNET_PRICE.input +
          u.output_tokens * SONNET_PRICE.output +
          (u.cache_read_input_tokens ?? 0) * SONNET_PRICE.cache_read +
          (u.cache_creation_input_tokens ?? 0) * SONNET_PRICE.cache_write) /
        1_000_000;
    }
    expect(input).toBeGreaterThan(0);
    await expect
      .poll(() => page.textContent("#usage-total"))
      .toBe(`Total: ${input.toLocaleString("en-US")} in · ${output.toLocaleString("en-US")} out tokens`);
    // The operator gave a price table: the cost next to the tokens, the session's and each turn's.
    expect(usd).toBeGreaterThan(0);
    expect(await page.textContent("#usage-cost")).toBe(`Cost: $${usd.toFixed(4)} (claude-sonnet-4-6)`);
    expect(await page.locator("#chat-log .event.usage").first().textContent()).toMatch(/ · \$\d+\.\d{4}$/);

    // Filters: unticking a kind hides its entries, ticking shows them again.
    const userLine = page.locator("#chat-log > .entry[data-kind=message]").first();
    expect(await userLine.isVisible()).toBe(true);
    await page.uncheck("#filter-message");
    expect(await userLine.isVisible()).toBe(false);
    expect(await digCall.isVisible()).toBe(true);
    await page.uncheck("#filter-skill");
    expect(await digCall.isVisible()).toBe(false);
    await page.check("#filter-message");
    await page.check("#filter-skill");
    expect(await userLine.isVisible()).toBe(true);
  });

  it("keeps a session of 10,000 events usable: the newest page drawn, earlier ones a page at a time", async () => {
    const environment = await client.beta.environments.create({ name: "long" });
    const agent = await client.beta.agents.create({ name: "talker", model: "claude-sonnet-4-6" });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "long",
    });
    const workspace = await ensureWorkspace(served.store.db, "default");
    for (let batch = 0; batch < 10; batch++) {
      const events = Array.from({ length: 1000 }, (_, i) => {
        const n = batch * 1000 + i;
        // The agent's side only: a stored user.message would be a turn for the runner to take.
        return n % 2 === 0
          ? { type: "agent.tool_use", id: `toolu_${n}`, name: "Read", input: { file_path: `/notes/${n}.md` } }
          : { type: "agent.message", content: [{ type: "text", text: `answer **${n}**` }] };
      });
      await served.store.sessions.appendEvents(workspace, session.id, events);
    }
    await page.goto(`${served.url}/sessions/${session.id}`);
    await page.waitForSelector("#chat-log[data-stream=open]", { timeout: 120_000 });
    const shown = page.locator("#chat-log > .entry");
    expect(await shown.count()).toBe(300);
    expect(await shown.last().textContent()).toContain("answer 9999");
    expect(await page.textContent("#timeline-earlier")).toBe("Show earlier events (9700 more)");
    await page.click("#timeline-earlier");
    expect(await shown.count()).toBe(600);
    expect(await shown.first().textContent()).toContain("/notes/9400.md");
    // The page still answers at once: a message sent now streams in at the end.
    await page.fill("#chat-input", "after ten thousand");
    await page.click("#chat-form button[type=submit]");
    await page.waitForSelector(".event.agent p:text-is('Still here.')");
    expect(await shown.count()).toBeGreaterThan(600);
  }, 300_000);

  it("shows a skill's versions: the agents using it, a diff between two, each file's text or its download; a missing one as not found", async () => {
    const md = (extra: string) =>
      `---\nname: notes\ndescription: Keeps notes\n---\n# Notes\nFirst line.\n${extra}`;
    const skill = await client.beta.skills.create({
      files: [
        await toFile(Buffer.from(md("Old line.\n")), "notes/SKILL.md"),
        await toFile(Buffer.from("Same text.\n"), "notes/references/kept.md"),
      ],
    });
    const bytes = Buffer.from([0, 1, 2, 255, 0, 7]);
    const second = await client.beta.skills.versions.create(skill.id, {
      files: [
        await toFile(Buffer.from(md("New line.\n")), "notes/SKILL.md"),
        await toFile(Buffer.from("Same text.\n"), "notes/references/kept.md"),
        await toFile(bytes, "notes/assets/logo.bin"),
      ],
    });
    await client.beta.agents.create({
      name: "note-taker",
      model: "claude-sonnet-4-6",
      skills: [{ type: "custom", skill_id: skill.id }],
    });
    await page.goto(`${served.url}/skills/${skill.id}`);
    await page.waitForSelector("#skill-users");
    expect(await page.textContent("#skill-users")).toBe("note-taker (latest version)");

    // The diff: the version before the newest against the newest, by default.
    await page.click("#diff-form button[type=submit]");
    const changed = page.locator("#version-diff .diff-file[data-path='notes/SKILL.md']");
    await changed.waitFor();
    expect(await changed.locator("h4").textContent()).toBe("notes/SKILL.md — changed");
    expect(await changed.locator(".del").allTextContents()).toEqual(["- Old line.\n"]);
    expect(await changed.locator(".add").allTextContents()).toEqual(["+ New line.\n"]);
    expect(await changed.locator(".same").first().textContent()).toBe("  ---\n");
    const added = page.locator("#version-diff .diff-file[data-path='notes/assets/logo.bin']");
    expect(await added.locator("h4").textContent()).toBe("notes/assets/logo.bin — added");
    expect(await added.textContent()).toContain("Not compared");
    expect(await page.locator("#version-diff .diff-file[data-path='notes/references/kept.md']").count()).toBe(
      0,
    );

    // A version's files: a text file opens in the page, a binary one is downloaded byte for byte.
    await page.goto(`${served.url}/skills/${skill.id}/versions/${second.id}`);
    await page.click("[data-file='notes/references/kept.md']");
    await expect.poll(() => page.textContent("#file-text")).toBe("Same text.\n");
    await page.click("[data-file='notes/assets/logo.bin']");
    await expect.poll(() => page.textContent("#file-view")).toContain("Not text");
    const [saved] = await Promise.all([
      page.waitForEvent("download"),
      page.click("[data-download='notes/assets/logo.bin']"),
    ]);
    expect(saved.suggestedFilename()).toBe("logo.bin");
    expect((await readFile(await saved.path())).equals(bytes)).toBe(true);

    // An id this workspace does not hold: the not-found view, and the way back to its section.
    await page.goto(`${served.url}/skills/skill_nope`);
    await page.waitForSelector("#not-found");
    expect(await page.textContent("#view h2")).toBe("Not found");
    expect(await page.getAttribute("#not-found a", "href")).toBe("/skills");
  });

  it("shows what the model was given: the listing as sent, a skill expanded then expired, each call beside its result; loading said while the answer is held", async () => {
    const jotter = await client.beta.skills.create({
      files: [
        await toFile(
          Buffer.from(
            "---\nname: jotter\ndescription: Jots <b>notes</b> <img src=x onerror=window.__pwned=9>\nttl-turns: 1\n---\nJOTTER-BODY write it down.\n",
          ),
          "jotter/SKILL.md",
        ),
      ],
    });
    const environment = await client.beta.environments.create({ name: "given" });
    const agent = await client.beta.agents.create({
      name: "jotting",
      model: "claude-sonnet-4-6",
      skills: [{ type: "custom", skill_id: jotter.id }],
    });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "given",
    });
    for (const prompt of ["go jot", "note one", "note two"]) {
      const stream = await client.beta.sessions.events.stream(session.id);
      try {
        await client.beta.sessions.events.send(session.id, userMessage(prompt));
        await readUntil(stream[Symbol.asyncIterator](), (e: StreamEvent) => e.type === "session.status_idle");
      } finally {
        stream.controller.abort();
      }
    }

    // The view's answer is held by the test: the page says it is loading until it is let through.
    const address = `**/v1/skillwright/sessions/${session.id}/model-input`;
    let asked = () => {};
    const requested = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(address, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    try {
      await page.goto(`${served.url}/sessions/${session.id}`);
      await page.waitForSelector("#chat-log[data-stream=open]");
      await page.click("#session-model-input");
      await requested;
      await page.waitForSelector("#loading");
      expect(await page.textContent("#loading")).toBe("Loading…");
      expect(await page.locator("#model-skills").count()).toBe(0);
      release();
      await page.waitForSelector("#model-skills");
      expect(await page.locator("#loading").count()).toBe(0);
    } finally {
      release();
      await page.unroute(address);
    }
    expect(page.url()).toBe(`${served.url}/sessions/${session.id}/model-input`);
    expect(await page.textContent("#view h2")).toBe("What the model was given");

    // The skill: listed, expanded once, expired once, expired now.
    const row = page.locator("#model-skills tbody tr", { hasText: "jotter" });
    expect(await row.locator("td").allTextContents()).toEqual(["jotter", "yes", "1", "0", "1", "expired"]);
    // The listing as sent (open), its text shown as text: the description's markup is not in the page.
    const listing = page.locator("#model-reminders > li[data-kind=listing]").first();
    expect(await listing.locator("details").getAttribute("open")).toBe("");
    const sent = (await listing.locator(".reminder-text").textContent()) ?? "";
    expect(sent).toMatch(
      /^<system-reminder>\nThe following skills are available for use with the Skill tool:/,
    );
    expect(sent).toContain("- jotter: ");
    expect(await page.locator("#view img, #view b").count()).toBe(0);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    // Expanded inline in the first turn, then expired.
    expect(
      await page
        .locator("#skill-events > li")
        .evaluateAll((items) => items.map((i) => i.getAttribute("data-kind"))),
    ).toEqual(["inline", "expired"]);
    const expansion = page.locator("#skill-events > li[data-kind=inline]");
    await expansion.locator("summary").click();
    expect(await expansion.locator(".skill-text").textContent()).toContain("JOTTER-BODY write it down.");
    // The Skill call with the result the model got, side by side.
    const call = page.locator("#model-calls > li", { hasText: "Skill" }).first();
    await call.locator("summary").click();
    expect(JSON.parse((await call.locator(".call-input").textContent()) ?? "")).toEqual({ skill: "jotter" });
    expect(await call.locator(".call-result").textContent()).not.toBe("(no result)");
    // Back to the timeline.
    await page.click("#model-input-timeline");
    await page.waitForURL(`${served.url}/sessions/${session.id}`);
    await page.waitForSelector("#chat-log[data-stream=open]");
  }, 180_000);

  // Each new view at two widths (and the phone width dark), checked by axe: the bound is for a hang.
  it("has no serious or critical axe-core violations on the console's views, at 375 px and 1280 px; screenshots kept", async () => {
    const sessions = (await client.beta.sessions.list()).data;
    const timeline = sessions.find((s) => s.title === "timeline");
    const given = sessions.find((s) => s.title === "given");
    const skill = (await client.beta.skills.list()).data.find((s) => s.display_name === "notes");
    if (timeline === undefined || given === undefined || skill === undefined)
      throw new Error("the sessions and skill made above");
    // `act`: what is done before the check (a thread and a call opened, the diff drawn, a dialog open).
    const views: { name: string; path: string; ready: string; act?: (tab: Page) => Promise<void> }[] = [
      {
        name: "session-timeline",
        path: `/sessions/${timeline.id}`,
        ready: "#chat-log[data-stream=open] details.thread",
        act: async (tab) => {
          await tab.locator("#chat-log details.thread summary").first().click();
          await tab.locator("#chat-log details.call summary").first().click();
        },
      },
      {
        name: "session-confirm-delete",
        path: `/sessions/${timeline.id}`,
        ready: "#chat-log[data-stream=open]",
        act: async (tab) => {
          await tab.click("#session-delete");
          await tab.waitForSelector("dialog.confirm-dialog");
        },
      },
      {
        name: "skill-diff",
        path: `/skills/${skill.id}`,
        ready: "#diff-form",
        act: async (tab) => {
          await tab.click("#diff-form button[type=submit]");
          await tab.waitForSelector("#version-diff .diff-file");
        },
      },
      {
        name: "skill-version-file",
        path: `/skills/${skill.id}/versions/${skill.latest_version_id}`,
        ready: "#skill-md",
        act: async (tab) => {
          await tab.click("[data-file='notes/references/kept.md']");
          await tab.waitForSelector("#file-text");
        },
      },
      {
        name: "session-model-input",
        path: `/sessions/${given.id}/model-input`,
        ready: "#model-skills",
        act: async (tab) => {
          await tab.locator("#skill-events details summary").first().click();
          await tab.locator("#model-calls details summary").first().click();
        },
      },
      { name: "not-found", path: "/skills/skill_nope", ready: "#not-found" },
    ];
    const dir = await artifactsDir("web");
    const found: string[] = [];
    for (const [width, scheme] of [
      [375, "light"],
      [1280, "light"],
      [375, "dark"],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
      try {
        const tab = await context.newPage();
        tab.setDefaultTimeout(20_000);
        await tab.goto(`${served.url}/`);
        await tab.fill("#api-key", "k");
        await tab.click("#signin-form button[type=submit]");
        await tab.waitForSelector("#nav:not([hidden])");
        for (const view of views) {
          await tab.goto(`${served.url}${view.path}`);
          await tab.waitForSelector(view.ready);
          await view.act?.(tab);
          const name = `${view.name}-${width}-${scheme}`;
          for (const v of await axeViolations(tab)) {
            found.push(`${name}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(", ")}`);
          }
          const overflow = await tab.evaluate<number>(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth",
          );
          if (overflow > 0) found.push(`${name}: ${overflow} px wider than the screen`);
          await screenshot(tab, dir, name);
        }
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 300_000);
});
