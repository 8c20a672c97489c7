import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followEvents } from "../../src/serve/events/follow-events.js";
import { createServeApp } from "../../src/serve/http/app.js";
import type { SessionRunner } from "../../src/serve/session-runner.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { launchChromium } from "../support/browser.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { listenInProcess, sdkClient } from "./serve-process.js";

// The page's chat against the events routes as they run with a SessionRunner (the seam the engine fills):
// a stand-in runner answers each user.message with the events a turn with a Skill call, a reference read
// and a fork emits, in the SDK's names and shapes, and the page shows them streamed, with its side panel.

const WEB_DIR = fileURLToPath(new URL("../../src/serve/web/", import.meta.url));
const FORK = "sthr_fork1";
/** The custom tool call the stand-in runner's "call tools" turn still waits on. */
let waitingCustom: string[] = [];

let store: Store;
let url: string;
let close: () => Promise<void>;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  store = await createStore(await freshPgliteDriver());
  await addApiKey(store.db, await ensureWorkspace(store.db, "default"), "k");
  const runner: SessionRunner = {
    async send(workspaceId, session, events) {
      const stored = await store.sessions.appendEvents(workspaceId, session.id, events);
      const first = events[0];
      if (first?.type === "user.tool_confirmation") {
        await store.sessions.appendEvents(workspaceId, session.id, [
          {
            type: "agent.mcp_tool_result",
            mcp_tool_use_id: first.tool_use_id,
            content: [{ type: "text", text: "found" }],
          },
          { type: "session.status_idle", stop_reason: { type: "requires_action", event_ids: waitingCustom } },
        ]);
        return stored;
      }
      if (JSON.stringify(first).includes("call tools")) {
        const [mcp, custom] = await store.sessions.appendEvents(workspaceId, session.id, [
          {
            type: "agent.mcp_tool_use",
            name: "search",
            mcp_server_name: "docs",
            input: { query: "<i>q</i>" },
            evaluated_permission: "ask",
          },
          { type: "agent.custom_tool_use", name: "lookup", input: { key: "x" } },
        ]);
        if (mcp === undefined || custom === undefined) throw new Error("two events stored");
        waitingCustom = [custom.id];
        await store.sessions.appendEvents(workspaceId, session.id, [
          {
            type: "session.status_idle",
            stop_reason: { type: "requires_action", event_ids: [mcp.id, custom.id] },
          },
        ]);
        return stored;
      }
      await store.sessions.appendEvents(workspaceId, session.id, [
        { type: "session.status_running" },
        { type: "agent.tool_use", name: "Skill", input: { skill: "greeter", args: "Ada" } },
        { type: "agent.tool_result", tool_use_id: "t1", content: [{ type: "text", text: "loaded" }] },
        { type: "agent.tool_use", name: "load_reference", input: { skill: "greeter", name: "tone.md" } },
        { type: "session.thread_created", session_thread_id: FORK, agent_name: "research" },
        { type: "session.thread_status_running", session_thread_id: FORK },
        { type: "agent.message", session_thread_id: FORK, content: [{ type: "text", text: "fork says hi" }] },
        { type: "session.thread_status_idle", session_thread_id: FORK, stop_reason: { type: "end_turn" } },
        { type: "agent.message", content: [{ type: "text", text: "Hello <b>Ada</b>" }] },
        { type: "session.status_idle", stop_reason: { type: "end_turn" } },
      ]);
      return stored;
    },
    subscribe: (workspaceId, sessionId, signal) =>
      followEvents(store.sessions, workspaceId, sessionId, signal),
  };
  const app = createServeApp({ store, runner, readWebAsset: (name) => readFile(WEB_DIR + name, "utf8") });
  ({ url, close } = await listenInProcess(app));
  browser = await launchChromium();
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await close?.();
  await store?.close();
});

describe("the web page's chat with the events routes served", () => {
  it("sends a user.message and shows the streamed answer, tool uses, skills loaded, references read and forks", async () => {
    const client = sdkClient(url, "k");
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({ name: "helper", model: "claude-sonnet-5-5" });
    await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      title: "chatty",
    });

    await page.goto(`${url}/`);
    await page.fill("#api-key", "k");
    await page.click("#signin-form button[type=submit]");
    await page.click("nav [data-view=sessions]");
    await page.click(`#view a:text-is('chatty')`);
    await page.waitForSelector("#chat-log[data-stream=open]");

    await page.fill("#chat-input", "greet Ada");
    await page.click("#chat-form button[type=submit]");
    await page.waitForSelector("#chat-status:text-is('Status: idle')");
    await page.waitForSelector(".event.agent p:text-is('Hello <b>Ada</b>')");
    const log = await page.textContent("#chat-log");
    expect(log).toContain("You: greet Ada");
    expect(log).toMatch(/→ Skill \{[^}]*"skill":"greeter"/);
    expect(log).toContain("← loaded");
    expect(log).toContain("[research] fork says hi");
    expect(await page.locator("#chat-log b").count()).toBe(0);
    // The user's message came back from the send and from the stream: shown once.
    expect(log?.split("You: greet Ada").length).toBe(2);

    // No price table was given to this server: no cost is shown (web-console.test.ts has one).
    expect(await page.locator("#usage-cost").count()).toBe(0);
    expect(await page.textContent("#chat-log")).not.toContain("$");
    expect(await page.textContent("#skills-loaded")).toBe("greeter (Ada)");
    expect(await page.textContent("#references-read")).toBe("greeter: tone.md");
    expect(await page.textContent("#forks")).toBe(
      "research: done, 1 events (last: agent.message) → fork says hi",
    );
    expect(await page.textContent("#chat-error")).toBe("");

    // Reopened, the session's history is listed again (GET …/events), the same panel rebuilt from it.
    await page.reload();
    await page.click("nav [data-view=sessions]");
    await page.click(`#view a:text-is('chatty')`);
    await page.waitForSelector(".event.agent p:text-is('Hello <b>Ada</b>')");
    // No price table was given to this server: no cost is shown (web-console.test.ts has one).
    expect(await page.locator("#usage-cost").count()).toBe(0);
    expect(await page.textContent("#chat-log")).not.toContain("$");
    expect(await page.textContent("#skills-loaded")).toBe("greeter (Ada)");

    // Ctrl+Enter in the message box sends it; Enter alone is a new line.
    await page.waitForSelector("#chat-log[data-stream=open]");
    await page.focus("#chat-input");
    await page.keyboard.type("once more");
    await page.keyboard.press("Enter");
    await page.keyboard.type("please");
    await page.keyboard.press("Control+Enter");
    await expect
      .poll(() => page.locator(".event.user").allTextContents())
      .toContain("You: once more\nplease");
    // The box is emptied once the send is answered, which the stream may beat.
    await expect.poll(() => page.inputValue("#chat-input")).toBe("");
  });

  it("shows an MCP call waiting for confirmation with Allow, a custom tool's wait as the application's, both in the side panel", async () => {
    const client = sdkClient(url, "k");
    const environment = await client.beta.environments.create({ name: "e2" });
    const agent = await client.beta.agents.create({ name: "tooler", model: "claude-sonnet-5-5" });
    await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id, title: "tooly" });

    await page.goto(`${url}/`);
    await page.click("nav [data-view=sessions]");
    await page.click(`#view a:text-is('tooly')`);
    await page.waitForSelector("#chat-log[data-stream=open]");
    await page.fill("#chat-input", "call tools");
    await page.click("#chat-form button[type=submit]");

    const cards = page.locator("#confirmations .confirm");
    await page.waitForSelector("#chat-status:text-is('Status: idle (requires action)')");
    expect(await cards.count()).toBe(2);
    const mcp = cards.nth(0);
    expect(await mcp.locator(".confirm-name").textContent()).toBe("search (MCP server docs)");
    expect(JSON.parse((await mcp.locator(".confirm-input").textContent()) ?? "")).toEqual({
      query: "<i>q</i>",
    });
    expect(await page.locator("#confirmations i").count()).toBe(0);
    const custom = cards.nth(1);
    expect(await custom.locator("button").count()).toBe(0);
    expect(await custom.textContent()).toContain("Your application must answer this call");
    expect(await page.locator("#tool-calls li").allTextContents()).toEqual([
      "search (MCP server docs) — waiting for you",
      "lookup (custom) — waiting for the application",
    ]);

    const mcpId = await mcp.getAttribute("data-event-id");
    await mcp.locator("button.allow").click();
    await page.waitForSelector(".event.tool:text-is('← found')");
    await page.waitForSelector(`#confirmations .confirm[data-event-id="${mcpId}"]`, { state: "detached" });
    expect(await cards.nth(0).locator(".confirm-name").textContent()).toBe("lookup (custom)");
    expect(await page.locator("#tool-calls li").allTextContents()).toEqual([
      "search (MCP server docs) — done",
      "lookup (custom) — waiting for the application",
    ]);
    expect(await page.textContent("#chat-log")).toContain("You allowed search (MCP server docs)");
  });
});
