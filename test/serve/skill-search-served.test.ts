import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { sayAndRead } from "../support/session-stream.js";

// A served session's SkillSearch (issue #25 item 2): offered when the agent's skills do not all fit the listing
// (21 skills of ~700 chars against the 8,000 a 200k-token model gets),
// it asks the database too, which ranks each skill at the version the agent pins: a pinned older version is
// found by its own words, never by its latest version's.

const FILLERS = 20;
const filler = (i: number) =>
  `Handles chore ${i} of the nightly build, ${"checks lockfiles, rotates build caches, tidies artefacts, ".repeat(12)}`;

let served: ServedApp;
let client: Anthropic;
/** What the sessions asked the scripted model. */
const requests = () => served.model?.requests ?? [];

beforeAll(async () => {
  served = await startServedApp({
    modelTurns: [
      toolTurn("SkillSearch", { query: "podcast episodes" }, { match: { lastUserTextIncludes: "podcast" } }),
      toolTurn("SkillSearch", { query: "meeting minutes" }, { match: { lastUserTextIncludes: "minutes" } }),
      textTurn("Searched.", { hasToolResultFor: "SkillSearch" }),
    ],
  });
  client = served.client();
}, 60_000);
afterAll(async () => {
  await served?.close();
});

const upload = async (name: string, description: string) =>
  client.beta.skills.create({
    files: [
      await toFile(
        Buffer.from(`---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`),
        `${name}/SKILL.md`,
      ),
    ],
  });

/** The text of the SkillSearch result the model was sent last. */
function lastSearchResult(): string {
  const body = requests().at(-1)?.body as { messages: unknown[] } | undefined;
  const last = JSON.stringify(body?.messages.at(-1));
  expect(last).toContain("tool_result");
  return last;
}

describe("SkillSearch in a served session", () => {
  it("ranks the version the agent pins by its own words", async () => {
    const minutes = await upload("minutes", "Writes meeting minutes from a transcript");
    const pinned = minutes.latest_version_id;
    await client.beta.skills.versions.create(minutes.id, {
      files: [
        await toFile(
          Buffer.from("---\nname: minutes\ndescription: Summarises podcast episodes\n---\nBody.\n"),
          "minutes/SKILL.md",
        ),
      ],
    });
    const chores = [];
    for (let i = 0; i < FILLERS; i++) chores.push(await upload(`chore-${i}`, filler(i)));
    const agent = await client.beta.agents.create({
      name: "searcher",
      model: "claude-sonnet-4-5",
      skills: [
        { type: "custom", skill_id: minutes.id, version: pinned },
        ...chores.map((c) => ({ type: "custom" as const, skill_id: c.id })),
      ],
    });
    const env = await client.beta.environments.create({ name: "search" });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });

    await sayAndRead(client, session.id, "find a podcast skill");
    expect(JSON.stringify(requests()[0]?.body)).toContain('"name":"SkillSearch"');
    // The latest version's words: the session was given the pinned one, so nothing answers to them.
    expect(lastSearchResult()).not.toContain("minutes");

    await sayAndRead(client, session.id, "find the minutes skill");
    expect(lastSearchResult()).toContain("minutes");
  }, 60_000);
});
