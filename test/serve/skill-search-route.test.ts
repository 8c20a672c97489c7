import { toFile } from "@anthropic-ai/sdk";
import type { BetaSkill } from "@anthropic-ai/sdk/resources/beta/skills/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SEARCH_LIMIT } from "../../src/serve/http/skills-routes.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";

// `GET /v1/skills?q=…` (issue #25 item 2): the served store's own search over a workspace, through the official
// SDK client's generic `get` (the list's typed parameters have no `q`) and plain HTTP.

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

interface SkillPage {
  data: BetaSkill[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
  next_page: string | null;
}

let app: ServedApp;
beforeAll(async () => {
  app = await startServedApp({ keys: { default: "k", other: "k2" } });
  const upload = async (key: string, name: string, description: string) =>
    app.client(key).beta.skills.create({
      files: [await toFile(Buffer.from(skillMd(name, description)), `${name}/SKILL.md`)],
    });
  await upload("k", "invoice-pdf", "Turns invoices into PDF files with totals and tax lines");
  await upload("k", "pdf-forms", "Fills in PDF forms and flattens them");
  await upload("k", "release-notes", "Writes release notes from merged pull requests");
  await upload("k2", "other-invoices", "Invoices of another workspace");
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const search = (query: Record<string, string>, key = "k") =>
  app.client(key).get<SkillPage>("/v1/skills", { query });

describe("GET /v1/skills?q=", () => {
  it("answers the workspace's skills best first, as one page of the list's shape", async () => {
    const page = await search({ q: "turn my invoices into a pdf" });
    expect(page.data.map((s) => s.display_name)).toEqual(["invoice-pdf", "pdf-forms"]);
    expect(page).toMatchObject({ has_more: false, next_page: null, first_id: page.data[0]?.id });
    // Each as `skills.retrieve` answers it.
    const [first] = page.data;
    expect(first).toEqual(await app.client().beta.skills.retrieve(first?.id ?? ""));
    expect((await search({ q: "pull requests" })).data.map((s) => s.display_name)).toEqual(["release-notes"]);
    expect((await search({ q: "pdf", limit: "1" })).data.map((s) => s.display_name)).toHaveLength(1);
  });

  it("never answers another workspace's skill; nothing for stop words or a hostile query", async () => {
    expect((await search({ q: "invoices" }, "k2")).data.map((s) => s.display_name)).toEqual([
      "other-invoices",
    ]);
    expect((await search({ q: "use a skill to help" })).data).toEqual([]);
    expect((await search({ q: "'); DROP TABLE skills; --" })).data).toEqual([]);
    expect((await app.client().beta.skills.list()).data).toHaveLength(3);
  });

  it("refuses a page cursor or a limit over the search's own", async () => {
    const refused = async (query: Record<string, string>) => {
      const response = await fetch(`${app.url}/v1/skills?${new URLSearchParams(query)}`, {
        headers: { "x-api-key": "k" },
      });
      return { status: response.status, body: (await response.json()) as { error: { message: string } } };
    };
    const paged = await refused({ q: "pdf", page: "page_x" });
    expect(paged.status).toBe(400);
    expect(paged.body.error.message).toContain("leave out page");
    const many = await refused({ q: "pdf", limit: String(MAX_SEARCH_LIMIT + 1) });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toContain(`at most ${MAX_SEARCH_LIMIT}`);
  });
});
