import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { zipSync } from "fflate";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { artifactsDir, axeViolations, screenshot } from "../support/axe.js";
import { launchChromium } from "../support/browser.js";
import { corpusPath, itWithCorpus } from "../support/corpus.js";
import { TEST_API_KEY, textTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// The web page at `/` of the shipped bin's `serve`, driven in Debian's chromium (installed when missing).
const KEY = "sk-web-test";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EVIL = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n# ${name}\nSay hello.\n`;

/** A skill folder in the shape of a real one: SKILL.md, a references file and a licence. */
const BRAND_SKILL = {
  "brand-guidelines/SKILL.md": `${skillMd("brand-guidelines", "Applies the Example Co. house colours and typefaces to slides, documents and charts. Use when something should look like Example Co.")}See references/palette.md for the colours.\n`,
  "brand-guidelines/references/palette.md":
    "# Palette\n\n- Ink: #1b1f23\n- Paper: #fafaf7\n- Accent: #d9480f\n",
  "brand-guidelines/LICENSE.txt": "Written for skillwright's tests. Use it as you like.\n",
};

let tree: TmpTree;
let server: ServeProcess;
let model: ModelServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  tree = await tmpTree({
    ...BRAND_SKILL,
    // Every byte value, twice: what an upload and a download must keep exactly.
    "upload/bytes.bin": new Uint8Array(512).map((_, i) => (i * 7) % 256),
    // Its inline shell will not run on this server: the upload says so, and so does the version's page.
    "zipped.zip": zipSync({
      "zipped/SKILL.md": new TextEncoder().encode(`${skillMd("zipped", "From a zip")}Today: !\`date\`\n`),
    }),
  });
  // The chat's answer comes from the scripted Messages API server, through the engine serve runs.
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: { turns: [textTurn("Hello from the scripted model.")] },
  });
  // --sandbox none: the uploads' warnings (inline shell that will not run) are shown.
  server = await startServe(
    ["--db", await freshPgliteDir(tree.path("db")), "--api-key", KEY, "--sandbox", "none"],
    {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.url,
    },
  );
  // Installing chromium with apt-get on a fresh machine can take minutes.
  browser = await launchChromium();
  page = await browser.newPage();
  // Fails a step with the selector it waited for, well before the test's own timeout.
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await model?.close();
  await tree?.cleanup();
});

describe("the web page in chromium", () => {
  it("is served at / with a strict CSP, its script and stylesheet from /web/", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect((await fetch(`${server.url}/web/app.js`)).headers.get("content-type")).toContain("javascript");
    expect((await fetch(`${server.url}/web/style.css`)).status).toBe(200);
  });

  it("ships in the package: npm pack holds the page's files (the bin reads them from the package root)", async () => {
    const packed = await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT });
    const [manifest] = JSON.parse(packed.stdout) as { files: { path: string }[] }[];
    const paths = manifest?.files.map((f) => f.path) ?? [];
    for (const file of ["index.html", "app.js", "style.css", "vendor/marked.js", "vendor/purify.js"])
      expect(paths).toContain(`src/serve/web/${file}`);
  });

  it("refuses a wrong key with a message, then signs in with the right one", async () => {
    await page.goto(`${server.url}/`);
    await page.fill("#api-key", "sk-wrong");
    await page.click("#signin-form button[type=submit]");
    await expect.poll(() => page.textContent("#signin-error")).toContain("invalid API key");
    expect(await page.isVisible("#nav")).toBe(false);

    await page.fill("#api-key", KEY);
    await page.click("#signin-form button[type=submit]");
    await page.waitForSelector("#nav:not([hidden])");
    await page.waitForSelector("text=No skills yet.");
    expect(await page.evaluate("sessionStorage.getItem('skillwright.apiKey')")).toBe(KEY);
  });

  it("uploads a skill folder and a zip, and browses to a version's SKILL.md", async () => {
    await page.setInputFiles("#upload-folder", tree.path("brand-guidelines"));
    await page.click("#upload-folder-form button[type=submit]");
    await expect.poll(() => page.textContent("#upload-status")).toContain("Uploaded brand-guidelines");
    // The status is set before the list re-renders (and with it the forms): wait for the new list.
    await page.waitForSelector("#view a:text-is('brand-guidelines')");

    await page.setInputFiles("#upload-zip", tree.path("zipped.zip"));
    await page.click("#upload-zip-form button[type=submit]");
    await expect.poll(() => page.textContent("#upload-status")).toContain("Uploaded zipped");
    expect(await page.textContent("#upload-status")).toContain("Warning (inline-shell-not-run)");

    await page.click("#view a:text-is('brand-guidelines')");
    await page.waitForSelector("h2:text-is('brand-guidelines')");
    await page.click("#view td a");
    await page.waitForSelector("#skill-md");
    expect(await page.textContent("#skill-md")).toContain("name: brand-guidelines");
    expect(await page.textContent("#view ul")).toContain("brand-guidelines/LICENSE.txt");
    expect(await page.textContent("#view ul")).toContain("brand-guidelines/references/palette.md");
    expect(await page.textContent(".description")).toContain("Example Co. house colours");

    // The page reloads signed in (the key is in sessionStorage), at the same view; the zip's skill is listed too.
    await page.reload();
    await page.waitForSelector("#skill-md");
    await page.click("nav [data-view=skills]");
    await page.waitForSelector("#view a:text-is('zipped')");
    await page.click("#view a:text-is('zipped')");
    await page.waitForSelector("h2:text-is('zipped')");
    await page.click("#view td a");
    await page.waitForSelector("#skill-warnings");
    expect(await page.textContent("#skill-warnings")).toContain("inline-shell-not-run (SKILL.md)");
  });

  it("shows markup in a skill's name and description as text, never running it", async () => {
    const client = sdkClient(server.url, KEY);
    const { toFile } = await import("@anthropic-ai/sdk");
    await client.beta.skills.create({
      files: [await toFile(Buffer.from(skillMd("evil", EVIL)), "evil/SKILL.md")],
      display_name: EVIL,
    });
    await page.click("nav [data-view=skills]");
    const evilLink = page.locator("#view a", { hasText: "<script>" });
    await evilLink.waitFor();
    expect(await evilLink.textContent()).toBe(EVIL);
    await evilLink.click();
    // The list has links in its cells too: wait for the skill's own heading before reading its versions.
    await page.locator("#view h2", { hasText: "<script>" }).waitFor();
    expect(await page.textContent("#view h2")).toBe(EVIL);
    expect(await page.textContent("#view tbody")).toContain(EVIL);
    await page.click("#view td a");
    await page.waitForSelector("#skill-md");
    expect(await page.textContent(".description")).toBe(EVIL);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await page.locator("#view script, #view img").count()).toBe(0);
  });

  it("searches the skills (GET /v1/skills?q=), best first, and lists them all again when the box is empty", async () => {
    await page.click("nav [data-view=skills]");
    await page.waitForSelector("#skill-search-form");
    await page.fill("#skill-search", "house colours");
    await page.click("#skill-search-form button[type=submit]");
    await expect.poll(() => page.textContent("#search-status")).toContain("1 skill matches “house colours”");
    expect(await page.locator("#skill-list tbody tr").allTextContents()).toEqual([
      expect.stringContaining("brand-guidelines"),
    ]);
    await page.fill("#skill-search", "zebra quantum");
    await page.click("#skill-search-form button[type=submit]");
    await page.waitForSelector("text=No skill matches “zebra quantum”.");
    await page.fill("#skill-search", "");
    await page.click("#skill-search-form button[type=submit]");
    await page.waitForSelector("#skill-list a:text-is('zipped')");
    expect(await page.locator("#skill-list tbody tr").count()).toBe(3);
  });

  it("creates an agent with a chosen skill", async () => {
    await page.click("nav [data-view=agents]");
    await page.waitForSelector("#agent-form");
    await page.fill("#agent-name", "web-helper");
    await page.check("#agent-form label:text-is('brand-guidelines') >> xpath=preceding-sibling::input");
    await page.click("#agent-form button[type=submit]");
    await page.waitForSelector("td:text-is('web-helper')");
    const agents = await sdkClient(server.url, KEY).beta.agents.list();
    const agent = agents.data.find((a) => a.name === "web-helper");
    expect(agent?.skills.map((s) => s.type)).toEqual(["custom"]);
    // Its skills by name, each a link to the skill.
    const skillLink = page.locator("td:text-is('web-helper') ~ td a", { hasText: "brand-guidelines" });
    expect(await skillLink.getAttribute("href")).toBe(`/skills/${agent?.skills[0]?.skill_id}`);
  });

  it("opens a session and chats: the answer streams in from the engine the server runs", async () => {
    await page.click("nav [data-view=sessions]");
    await page.waitForSelector("#session-form");
    await page.fill("#session-title", "web chat");
    await page.click("#session-form button[type=submit]");
    await page.waitForSelector("#chat-form");
    expect(await page.textContent("#view h2")).toBe("web chat");
    await page.waitForSelector("#chat-log[data-stream=open]");

    await page.fill("#chat-input", "hello");
    await page.click("#chat-form button[type=submit]");
    await expect.poll(() => page.textContent("#chat-log")).toContain("Hello from the scripted model.");
    expect(await page.textContent("#chat-log")).toContain("You: hello");
    expect(await page.textContent("#chat-error")).toBe("");

    await page.click("nav [data-view=sessions]");
    await page.click("#view a:text-is('web chat')");
    await page.waitForSelector("#chat-form");
    expect(await page.textContent("#view aside")).toContain("Skills loaded");
    // Reopened, the chat is rebuilt from the stored events.
    await expect.poll(() => page.textContent("#chat-log")).toContain("Hello from the scripted model.");
  });

  it("shows the outcome loop live: each evaluation's start, its grader's progress and its end", async () => {
    const client = sdkClient(server.url, KEY);
    const session = (await client.beta.sessions.list()).data.find((s) => s.title === "web chat");
    if (session === undefined) throw new Error("the session made above");
    const verdict = (result: string, explanation: string) =>
      `Checked.\n{"result": "${result}", "explanation": "${explanation}"}`;
    // The grader's turns first (told apart by its system prompt), then the agent's two drafts.
    model.addTurns([
      textTurn(verdict("needs_revision", "Add a title line."), {
        systemIncludes: "You are a grader.",
        lastUserTextIncludes: "draft one",
      }),
      textTurn(verdict("satisfied", "Titled and three lines."), {
        systemIncludes: "You are a grader.",
        lastUserTextIncludes: "draft two",
      }),
      textTurn("draft one", { lastUserTextIncludes: "Write a haiku" }),
      textTurn("draft two", { lastUserTextIncludes: "Add a title line." }),
    ]);
    await page.click("nav [data-view=sessions]");
    await page.click("#view a:text-is('web chat')");
    await page.waitForSelector("#chat-log[data-stream=open]");
    expect(await page.textContent("#outcome-evaluations")).toBe("");
    // Defined on the page (its form folded under the chat box).
    await page.click(".outcome-form summary");
    await page.fill("#outcome-description", "Write a haiku");
    await page.fill("#outcome-rubric", "1. Has a title line.\n2. Three lines.");
    await page.click("#outcome-form button[type=submit]");
    // The page is not reloaded: what it shows comes from its open event stream.
    await page.waitForSelector("#outcome-evaluations li[data-result=satisfied]");
    const items = await page.locator("#outcome-evaluations li").allTextContents();
    expect(items).toEqual([
      "Evaluation 1: needs_revision — Add a title line.",
      "Evaluation 2: satisfied — Titled and three lines.",
    ]);
    // Each grader answered in one request: one span.outcome_evaluation_ongoing each, counted as it came.
    expect(
      await page
        .locator("#outcome-evaluations li")
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-requests"))),
    ).toEqual(["1", "1"]);
    const log = (await page.textContent("#chat-log")) ?? "";
    expect(log).toContain("Outcome: Write a haiku (at most 3 evaluations)");
    const events = await client.beta.sessions.events.list(session.id, { limit: 100 });
    const defined = events.data.find((e) => e.type === "user.define_outcome");
    expect(defined).toMatchObject({
      description: "Write a haiku",
      max_iterations: 3,
      rubric: { type: "text", content: "1. Has a title line.\n2. Three lines." },
    });
    expect(log).toContain("Evaluation 1 started");
    expect(log).toContain("Evaluation 2 started");
    expect(log.indexOf("Evaluation 1 started")).toBeLessThan(log.indexOf("draft two"));
    expect(log).toContain("Evaluation 2: satisfied — Titled and three lines.");
  });

  it("browses memory stores: a store and a memory made on the page, edited into two versions, read by the API", async () => {
    const client = sdkClient(server.url, KEY);
    await page.click("nav [data-view=memory]");
    await page.waitForURL(`${server.url}/memory`);
    await page.waitForSelector("#stores-empty");
    await page.fill("#store-name", "web-notes");
    await page.fill("#store-description", "Notes made on the page");
    await page.click("#store-form button[type=submit]");
    await page.waitForURL(/\/memory\/[^/]+$/);
    await page.waitForSelector("#memories-empty");
    const store = (await client.beta.memoryStores.list()).data.find((s) => s.name === "web-notes");
    if (store === undefined) throw new Error("the store made on the page");
    expect(page.url()).toBe(`${server.url}/memory/${store.id}`);

    // A path that breaks the rules: the API's 400 on the page, nothing stored. (The browser's console logs the
    // refused request; the failed loads these two refusals cause are taken off the page's error list.)
    const errorsBefore = pageErrors.length;
    await page.fill("#memory-path", "notes/relative.md");
    await page.click("#memory-form button[type=submit]");
    await page.waitForSelector("#error:not([hidden])");
    expect(await page.textContent("#error")).toContain("400");
    expect((await client.beta.memoryStores.memories.list(store.id)).data).toEqual([]);

    await page.fill("#memory-path", "/notes/today.md");
    await page.fill("#memory-content", "First line.");
    await page.click("#memory-form button[type=submit]");
    await page.waitForSelector("#memory-text");
    expect(await page.textContent("#view h2")).toBe("/notes/today.md");
    const listed = await client.beta.memoryStores.memories.list(store.id);
    const memory = listed.data.find((m) => m.type === "memory" && m.path === "/notes/today.md");
    if (memory === undefined || memory.type !== "memory") throw new Error("the memory made on the page");
    expect(page.url()).toBe(`${server.url}/memory/${store.id}/${memory.id}`);
    const read = await client.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id });
    expect(read.content).toBe("First line.");

    await page.fill("#memory-edit", "First line.\nSecond line.");
    await page.click("#memory-edit-form button[type=submit]");
    await expect.poll(() => page.textContent("#memory-text")).toBe("First line.\nSecond line.");
    await expect.poll(() => page.locator("#view tbody tr").count()).toBe(2);
    expect(await page.textContent("#view tbody")).toContain("modified");
    const versions = await client.beta.memoryStores.memoryVersions.list(store.id, { memory_id: memory.id });
    expect(versions.data.map((v) => v.operation).sort()).toEqual(["created", "modified"]);
    const edited = await client.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id });
    expect(edited.content).toBe("First line.\nSecond line.");

    // An edit over text changed meanwhile (here through the API) is refused with the API's 409: nothing lost.
    await client.beta.memoryStores.memories.update(memory.id, {
      memory_store_id: store.id,
      content: "Changed elsewhere.",
    });
    await page.fill("#memory-edit", "Overwritten?");
    await page.click("#memory-edit-form button[type=submit]");
    await page.waitForSelector("#error:not([hidden])");
    expect(await page.textContent("#error")).toContain("409");
    const kept = await client.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id });
    expect(kept.content).toBe("Changed elsewhere.");
    expect(pageErrors.splice(errorsBefore).map((e) => /status of (\d+)/.exec(e)?.[1])).toEqual([
      "400",
      "409",
    ]);

    // The reverse: a memory written through the API is listed on the store's page, markup as text.
    await client.beta.memoryStores.memories.create(store.id, { path: "/from-api.md", content: EVIL });
    await page.click(`#view nav a:text-is('web-notes')`);
    await page.waitForSelector("#view a:text-is('/from-api.md')");
    await page.click("#view a:text-is('/from-api.md')");
    await page.waitForSelector("#memory-text");
    expect(await page.textContent("#memory-text")).toBe(EVIL);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    await page.reload();
    await page.waitForSelector("#memory-text");
    expect(await page.textContent("#view h2")).toBe("/from-api.md");
  });

  it("uploads a file through the page (multipart, as files.upload) that the API downloads byte-identical", async () => {
    const client = sdkClient(server.url, KEY);
    const bytes = await readFile(tree.path("upload/bytes.bin"));
    await page.click("nav [data-view=files]");
    await page.waitForURL(`${server.url}/files`);
    await page.waitForSelector("#files-empty");
    await page.setInputFiles("#file-input", tree.path("upload/bytes.bin"));
    await page.click("#file-form button[type=submit]");
    await expect.poll(() => page.textContent("#file-status")).toContain("Uploaded bytes.bin");
    const file = (await client.beta.files.list()).data.find((f) => f.filename === "bytes.bin");
    if (file === undefined) throw new Error("the file uploaded on the page");
    expect(file.size_bytes).toBe(bytes.length);
    const downloaded = new Uint8Array(await (await client.beta.files.download(file.id)).arrayBuffer());
    expect(Buffer.from(downloaded).equals(bytes)).toBe(true);

    // The page's own download link saves the same bytes under the file's name.
    const [saved] = await Promise.all([
      page.waitForEvent("download"),
      page.click(`#view button[data-file-id="${file.id}"]`),
    ]);
    expect(saved.suggestedFilename()).toBe("bytes.bin");
    const path = await saved.path();
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });

  it("gives each view its own address: links, back and forward, and a reload that returns to the same view", async () => {
    const client = sdkClient(server.url, KEY);
    const skill = (await client.beta.skills.list()).data.find((s) => s.display_name === "brand-guidelines");
    const session = (await client.beta.sessions.list()).data.find((s) => s.title === "web chat");
    if (skill === undefined || session === undefined) throw new Error("the skill and session made above");
    const at = (path: string) => `${server.url}${path}`;

    await page.click("nav [data-view=skills]");
    await page.waitForURL(at("/skills"));
    expect(await page.getAttribute("nav [data-view=skills]", "aria-current")).toBe("page");
    await page.click("#view a:text-is('brand-guidelines')");
    await page.waitForURL(at(`/skills/${skill.id}`));
    await page.waitForSelector("h2:text-is('brand-guidelines')");
    expect(await page.title()).toBe("brand-guidelines — skillwright");
    await page.click("#view td a");
    await page.waitForURL(/\/skills\/skill_[^/]+\/versions\/[^/]+$/);
    const versionUrl = page.url();
    await page.waitForSelector("#skill-md");

    // A reload opens the same view, signed in (the key is in this tab's sessionStorage).
    await page.reload();
    await page.waitForSelector("#skill-md");
    expect(page.url()).toBe(versionUrl);
    expect(await page.textContent("#skill-md")).toContain("name: brand-guidelines");

    // Back and forward walk the views, each drawn again.
    await page.goBack();
    await page.waitForURL(at(`/skills/${skill.id}`));
    await page.waitForSelector("h2:text-is('brand-guidelines')");
    await page.goBack();
    await page.waitForURL(at("/skills"));
    await page.waitForSelector("#upload-folder-form");
    await page.goForward();
    await page.waitForSelector("h2:text-is('brand-guidelines')");
    expect(page.url()).toBe(at(`/skills/${skill.id}`));

    await page.click("nav [data-view=agents]");
    await page.waitForURL(at("/agents"));
    await page.waitForSelector("#agent-form");
    expect(await page.getAttribute("nav [data-view=agents]", "aria-current")).toBe("page");
    expect(await page.getAttribute("nav [data-view=skills]", "aria-current")).toBeNull();

    await page.click("nav [data-view=sessions]");
    await page.click("#view a:text-is('web chat')");
    await page.waitForURL(at(`/sessions/${session.id}`));
    await page.reload();
    await page.waitForSelector("#chat-log[data-stream=open]");
    await expect.poll(() => page.textContent("#chat-log")).toContain("Hello from the scripted model.");

    await page.click("nav [data-view=memory]");
    await page.waitForURL(at("/memory"));
    await page.click("#view a:text-is('web-notes')");
    await page.waitForSelector("#view a:text-is('/notes/today.md')");
    await page.click("#view a:text-is('/notes/today.md')");
    await page.waitForSelector("#memory-text");
    const memoryUrl = page.url();
    await page.reload();
    await page.waitForSelector("#memory-text");
    expect(page.url()).toBe(memoryUrl);
    expect(await page.textContent("#view h2")).toBe("/notes/today.md");
    await page.click("nav [data-view=files]");
    await page.waitForURL(at("/files"));
    await page.waitForSelector("#file-form");
    expect(await page.getAttribute("nav [data-view=files]", "aria-current")).toBe("page");

    // An address under a section that has no view: the page says so; one outside every section is a 404.
    await page.goto(at(`/skills/${skill.id}/no/such/view`));
    await page.waitForSelector("#not-found");
    expect(await page.textContent("#not-found")).toContain(`/skills/${skill.id}/no/such/view`);
    for (const path of [
      "/sessions",
      `/sessions/${session.id}`,
      "/agents",
      "/skills/x/versions/y",
      "/memory",
      "/memory/x",
      "/memory/x/y",
      "/files",
    ]) {
      const response = await fetch(at(path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-security-policy"), path).toContain("default-src 'self'");
      expect(await response.text(), path).toContain('<script type="module" src="/web/app.js">');
    }
    expect((await fetch(at("/nowhere"))).status).toBe(404);

    // A link opened in a new tab (no key there yet) asks for the key, then shows the view it names.
    const tab = await browser.newPage();
    try {
      await tab.goto(at("/agents"));
      await tab.fill("#api-key", KEY);
      await tab.click("#signin-form button[type=submit]");
      await tab.waitForSelector("#agent-form");
      expect(tab.url()).toBe(at("/agents"));
      // An address whose session does not exist: the not-found view, in the API's words, with the way back
      // (in this tab, whose console may show the 404).
      await tab.goto(at("/sessions/sesn_nope"));
      await tab.waitForSelector("#not-found");
      expect(await tab.textContent("#view h2")).toBe("Not found");
      expect(await tab.textContent("#not-found")).toContain('Session "sesn_nope" not found.');
      expect(await tab.getAttribute("#not-found a", "href")).toBe("/sessions");
    } finally {
      await tab.close();
    }
  });

  it("works from the keyboard: a skip link first, visible focus, Enter on links and Space on controls", async () => {
    await page.goto(`${server.url}/sessions`);
    await page.waitForSelector("#session-form");
    const active = () => page.evaluate("document.activeElement?.id || document.activeElement?.tagName");
    await page.keyboard.press("Tab");
    expect(await active()).toBe("skip-link");
    // Shown while focused (it sits off screen otherwise).
    const box = await page.locator("#skip-link").boundingBox();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    await page.keyboard.press("Enter");
    expect(await active()).toBe("main");
    await page.keyboard.press("Tab");
    expect(await page.evaluate('document.getElementById("view").contains(document.activeElement)')).toBe(
      true,
    );
    // The focused control has an outline one can see.
    const outline = await page.evaluate<{ style: string; width: number }>(
      "({ style: getComputedStyle(document.activeElement).outlineStyle, width: parseFloat(getComputedStyle(document.activeElement).outlineWidth) })",
    );
    expect(outline.style).not.toBe("none");
    expect(outline.width).toBeGreaterThanOrEqual(2);

    // Enter follows a link: the new view's heading takes the focus.
    await page.focus("nav [data-view=agents]");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/agents`);
    await page.waitForSelector("#agent-form");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Agents");
    // Space ticks a skill's box.
    const box0 = page.locator("#agent-form input[type=checkbox]").first();
    await box0.focus();
    await page.keyboard.press("Space");
    expect(await box0.isChecked()).toBe(true);
  });

  // Every view at two widths and two schemes, each checked by axe: ~46 s on an idle 2-core machine, so the 30 s
  // default failed it there; the bound is for a hang, not a speed check.
  it("has no serious or critical axe-core violations on any view, at 375 px and 1280 px, light and dark; screenshots kept", async () => {
    const client = sdkClient(server.url, KEY);
    const skill = (await client.beta.skills.list()).data.find((s) => s.display_name === "brand-guidelines");
    const session = (await client.beta.sessions.list()).data.find((s) => s.title === "web chat");
    if (skill === undefined || session === undefined) throw new Error("the skill and session made above");
    const version = skill.latest_version_id;
    const store = (await client.beta.memoryStores.list()).data.find((s) => s.name === "web-notes");
    if (store === undefined) throw new Error("the memory store made above");
    const memory = (await client.beta.memoryStores.memories.list(store.id)).data.find(
      (m) => m.path === "/notes/today.md",
    );
    if (memory === undefined || memory.type !== "memory") throw new Error("the memory made above");
    // `open`: a control clicked before the check (a folded form, checked unfolded).
    const views: { name: string; path: string; ready: string; open?: string }[] = [
      { name: "sessions", path: "/sessions", ready: "#session-form" },
      { name: "session", path: `/sessions/${session.id}`, ready: "#chat-log[data-stream=open] .event.agent" },
      {
        name: "session-outcome-form",
        path: `/sessions/${session.id}`,
        ready: "#chat-log[data-stream=open] .event.agent",
        open: ".outcome-form summary",
      },
      { name: "agents", path: "/agents", ready: "#agent-form" },
      { name: "skills", path: "/skills", ready: "#upload-folder-form" },
      { name: "skill", path: `/skills/${skill.id}`, ready: "#view td a" },
      { name: "skill-version", path: `/skills/${skill.id}/versions/${version}`, ready: "#skill-md" },
      { name: "memory", path: "/memory", ready: "#store-form" },
      { name: "memory-store", path: `/memory/${store.id}`, ready: "#memory-form" },
      { name: "memory-item", path: `/memory/${store.id}/${memory.id}`, ready: "#view tbody tr" },
      { name: "files", path: "/files", ready: "#view button[data-file-id]" },
    ];
    // The check finds what it looks for: a field with no label is a critical violation.
    await page.goto(`${server.url}/memory`);
    await page.waitForSelector("#store-form");
    await page.evaluate('document.getElementById("view").append(document.createElement("input"))');
    expect((await axeViolations(page)).map((v) => v.id)).toContain("label");

    const dir = await artifactsDir("web");
    const found: string[] = [];
    const shots: string[] = [];
    const check = async (target: Page, name: string) => {
      for (const v of await axeViolations(target)) {
        found.push(`${name}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(", ")}`);
      }
      // Nothing wider than the screen: no sideways scrolling, even at phone width.
      const overflow = await target.evaluate<number>(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      );
      if (overflow > 0) found.push(`${name}: ${overflow} px wider than the screen`);
      shots.push(await screenshot(target, dir, name));
    };
    for (const scheme of ["light", "dark"] as const) {
      for (const width of scheme === "light" ? [375, 1280] : [375]) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
        try {
          const tab = await context.newPage();
          await tab.goto(`${server.url}/sessions`);
          await tab.waitForSelector("#signin-form");
          await check(tab, `signin-${width}-${scheme}`);
          await tab.fill("#api-key", KEY);
          await tab.click("#signin-form button[type=submit]");
          await tab.waitForSelector("#session-form");
          for (const view of views) {
            await tab.goto(`${server.url}${view.path}`);
            await tab.waitForSelector(view.ready);
            if (view.open) {
              await tab.click(view.open);
              await tab.waitForSelector("#outcome-form:visible");
            }
            await check(tab, `${view.name}-${width}-${scheme}`);
          }
        } finally {
          await context.close();
        }
      }
    }
    console.log(`web page screenshots (${shots.length}): ${dir}`);
    expect(found).toEqual([]);
  }, 300_000);

  it("signs out, forgetting the key", async () => {
    await page.click("#sign-out");
    await page.waitForSelector("#signin:not([hidden])");
    expect(await page.evaluate("sessionStorage.getItem('skillwright.apiKey')")).toBeNull();
    // The only failed load is the refused key.
    expect(pageErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  itWithCorpus(
    "signs in again and uploads a real skill folder written by others (the corpus's brand-guidelines)",
    async () => {
      await page.fill("#api-key", KEY);
      await page.click("#signin-form button[type=submit]");
      await page.click("nav [data-view=skills]");
      await page.waitForSelector("#upload-folder");
      await page.setInputFiles("#upload-folder", corpusPath("anthropics-skills", "brand-guidelines"));
      await page.click("#upload-folder-form button[type=submit]");
      await expect.poll(() => page.textContent("#upload-status")).toContain("Uploaded brand-guidelines");
      expect(await page.textContent("#upload-status")).not.toContain("Warning");
      expect(pageErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    },
  );
});
