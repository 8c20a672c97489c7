// Makes the README's two pictures of the web page: docs/web-page.png (a session's timeline at 1280 px, a Skill
// call opened to its input and result) and docs/web-page-phone.png (a skill version's page at 375 px, its
// SKILL.md rendered). Starts the shipped bin's `serve` on a free port with the scripted model
// (examples/turns.json) and an empty temp home, uploads a few of the example skills, makes an agent and a
// session, chats in it with the headless browser the tests use (test/support/browser.ts: Debian's chromium
// through playwright-core), and saves both views. Build first:
//   npm run build && node scripts/web-screenshot.mjs
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "docs/web-page.png");
const OUT_PHONE = join(ROOT, "docs/web-page-phone.png");
const KEY = "sk-local";
const SKILLS = [
  "examples/skills/greet",
  "examples/project/.claude/skills/commit-message",
  "examples/project/.claude/skills/code-review",
];

/** test/support/browser.ts, compiled by esbuild; its packages are imported from this checkout's node_modules. */
async function browserSupport() {
  const result = await build({
    entryPoints: [join(ROOT, "test/support/browser.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    plugins: [
      {
        name: "packages-from-root",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("node:")
              ? { path: args.path, external: true }
              : { path: import.meta.resolve(args.path), external: true },
          );
        },
      },
    ],
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

/** `node dist/bin/main.js serve --port 0 --script examples/turns.json`; resolves with its URL. */
function startServe(home) {
  const child = spawn(
    process.execPath,
    [join(ROOT, "dist/bin/main.js"), "serve", "--port", "0", "--api-key", KEY, "--script", "examples/turns.json"],
    { cwd: ROOT, env: { PATH: process.env.PATH, HOME: home }, stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.on("exit", (code) => reject(new Error(`serve exited (${code}) before listening:\n${out}`)));
  });
}

const home = mkdtempSync(join(tmpdir(), "skillwright-screenshot-"));
const { launchChromium } = await browserSupport();
const { url, child } = await startServe(home);
const browser = await launchChromium();
try {
  const client = new Anthropic({ apiKey: KEY, baseURL: url, maxRetries: 0 });
  const ids = [];
  for (const dir of SKILLS) {
    const name = dir.split("/").pop();
    const file = await toFile(readFileSync(join(ROOT, dir, "SKILL.md")), `${name}/SKILL.md`);
    ids.push((await client.beta.skills.create({ files: [file] })).id);
  }
  const environment = await client.beta.environments.create({ name: "demo" });
  const agent = await client.beta.agents.create({
    name: "greeter",
    model: "claude-sonnet-5-5",
    skills: ids.map((skill_id) => ({ type: "custom", skill_id })),
  });
  await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id, title: "first chat" });

  const page = await browser.newPage({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 });
  await page.goto(`${url}/`);
  await page.fill("#api-key", KEY);
  await page.click("#signin-form button[type=submit]");
  await page.click("nav [data-view=sessions]");
  await page.click("#view a:text-is('first chat')");
  await page.waitForSelector("#chat-log[data-stream=open]");
  await page.fill("#chat-input", "Hello, I am Ada");
  await page.click("#chat-form button[type=submit]");
  await page.waitForSelector("#chat-status:text-is('Status: idle')");
  await page.waitForSelector(".event.agent");
  await page.locator("#chat-log details.call summary").first().click();
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT} (${Math.round(statSync(OUT).size / 1024)} KB)`);

  const phone = await browser.newPage({ viewport: { width: 375, height: 760 }, deviceScaleFactor: 2 });
  await phone.goto(`${url}/`);
  await phone.fill("#api-key", KEY);
  await phone.click("#signin-form button[type=submit]");
  const greet = (await client.beta.skills.list()).data.find((s) => s.display_name === "greet");
  if (greet === undefined) throw new Error("the greet skill uploaded above");
  await phone.goto(`${url}/skills/${greet.id}/versions/${greet.latest_version_id}`);
  await phone.waitForSelector("#skill-md-rendered");
  await phone.screenshot({ path: OUT_PHONE });
  console.log(`wrote ${OUT_PHONE} (${Math.round(statSync(OUT_PHONE).size / 1024)} KB)`);
} finally {
  await browser.close();
  child.kill("SIGTERM");
  rmSync(home, { recursive: true, force: true });
}
