import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

const KEY = "sk-test-bad-input";
const SKILL_MD = "---\nname: fine\ndescription: A fine skill\n---\nBody\n";

let tree: TmpTree;
let server: ServeProcess;
let client: Anthropic;
beforeAll(async () => {
  tree = await tmpTree({});
  server = await startServe(["--db", await freshPgliteDir(tree.path("data")), "--api-key", KEY]);
  client = sdkClient(server.url, KEY);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await tree?.cleanup();
});

const text = (s: string) => new TextEncoder().encode(s);

/** Uploads `files` through the SDK and returns the error it threw (the test fails when none). */
async function refused(files: File[]): Promise<{ status: number; message: string }> {
  try {
    await client.beta.skills.create({ files });
  } catch (error) {
    if (error instanceof Anthropic.APIError) {
      const body = error.error as { error?: { message?: string } } | undefined;
      return { status: error.status ?? 0, message: body?.error?.message ?? error.message };
    }
    throw error;
  }
  throw new Error("the upload was accepted");
}

const zipFile = (zip: Uint8Array) => toFile(Buffer.from(zip), "skill.zip");

describe("bad uploads are refused with a 4xx and a clear message, and nothing is written", () => {
  it.each([
    ["unclosed frontmatter", "---\nname: x\ndescription: d\nBody\n", /frontmatter-unclosed/],
    ["invalid YAML", "---\nname: x\ndescription: [unclosed\n---\nBody\n", /yaml-invalid/],
    ["no frontmatter", "Just a body\n", /no frontmatter/],
    ["no description", "---\nname: x\n---\nBody\n", /no description/],
    ["an invalid name", "---\nname: Not Valid\ndescription: d\n---\nBody\n", /name-invalid/],
  ])("a malformed SKILL.md: %s", async (_label, content, message) => {
    const error = await refused([await toFile(Buffer.from(content), "x/SKILL.md")]);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/SKILL\.md is malformed/);
    expect(error.message).toMatch(message);
  });

  it.each([
    ["a .. segment", "x/../../etc/passwd", /escapes the skill root/],
    ["an absolute path", "/etc/SKILL.md", /is absolute/],
    ["a backslash", "x\\..\\SKILL.md", /backslash/],
  ])("a file path with %s", async (_label, path, message) => {
    const error = await refused([
      await toFile(Buffer.from(SKILL_MD), "x/SKILL.md"),
      await toFile(Buffer.from("x"), path),
    ]);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
  });

  it("files in two top-level dirs, or no SKILL.md at the root", async () => {
    expect(
      (
        await refused([
          await toFile(Buffer.from(SKILL_MD), "a/SKILL.md"),
          await toFile(Buffer.from("x"), "b/x.md"),
        ])
      ).message,
    ).toMatch(/same top-level directory/);
    expect((await refused([await toFile(Buffer.from(SKILL_MD), "a/sub/SKILL.md")])).message).toMatch(
      /no SKILL\.md/,
    );
  });

  it("a zip entry escaping the root, and a symlink entry", async () => {
    const escaping = zipSync({ "x/SKILL.md": text(SKILL_MD), "x/../../evil": text("x") });
    expect((await refused([await zipFile(escaping)])).message).toMatch(/escapes the skill root/);
    const link = zipSync({
      "x/SKILL.md": text(SKILL_MD),
      "x/link": [text("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    });
    const error = await refused([await zipFile(link)]);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/symlink/);
  });

  it("zip bombs: a high ratio, too many entries, too much in total, an entry lying about its size", async () => {
    const ratio = zipSync({ "x/SKILL.md": text(SKILL_MD), "x/zeros.bin": new Uint8Array(20 * 1024 * 1024) });
    const byRatio = await refused([await zipFile(ratio)]);
    expect(byRatio.status).toBe(413);
    expect(byRatio.message).toMatch(/zip bomb/);

    const many: Record<string, Uint8Array> = { "x/SKILL.md": text(SKILL_MD) };
    for (let i = 0; i < 1_001; i++) many[`x/f${i}.md`] = text("x");
    expect((await refused([await zipFile(zipSync(many))])).message).toMatch(/1002 entries/);

    const big: Record<string, [Uint8Array, { level: 0 }]> = {};
    for (let i = 0; i < 31; i++) big[`x/f${i}.bin`] = [new Uint8Array(1024 * 1024).fill(i), { level: 0 }];
    const total = await refused([await zipFile(zipSync({ "x/SKILL.md": text(SKILL_MD), ...big }))]);
    expect(total.status).toBe(413);
    expect(total.message).toMatch(/add up to more than/);

    const liar = zipSync({ "x/SKILL.md": text(SKILL_MD), "x/a.bin": new Uint8Array(200_000) });
    const view = Buffer.from(liar.buffer);
    for (let p = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); p !== -1; ) {
      if (view.toString("utf8", p + 46, p + 46 + view.readUInt16LE(p + 28)) === "x/a.bin")
        view.writeUInt32LE(10, p + 24);
      p = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), p + 4);
    }
    expect((await refused([await zipFile(liar)])).message).toMatch(
      /does not inflate to its declared 10 bytes/,
    );
  });

  it("a text file that is not valid UTF-8, uploaded as files or in a zip, is a 400 naming it", async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const skillMd = await refused([
      await toFile(Buffer.concat([Buffer.from(SKILL_MD), latin1]), "x/SKILL.md"),
    ]);
    expect(skillMd.status).toBe(400);
    expect(skillMd.message).toMatch(/file "x\/SKILL\.md" is text but not valid UTF-8/);
    const reference = await refused([
      await toFile(Buffer.from(SKILL_MD), "x/SKILL.md"),
      await toFile(Buffer.from("# Notes\n"), "x/references/ok.md"),
      await toFile(latin1, "x/references/notes.md"),
    ]);
    expect(reference.status).toBe(400);
    expect(reference.message).toMatch(/file "x\/references\/notes\.md" is text but not valid UTF-8/);
    const zipped = zipSync({ "x/SKILL.md": text(SKILL_MD), "x/scripts/run.py": new Uint8Array(latin1) });
    expect((await refused([await zipFile(zipped)])).message).toMatch(/file "x\/scripts\/run\.py" is text/);
  });

  it("a 50 MB body is a 413", async () => {
    const response = await fetch(`${server.url}/v1/skills`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "multipart/form-data; boundary=x" },
      body: new Uint8Array(50 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "request_too_large" } });
  });

  it("unknown fields and bad values are a 400 naming them", async () => {
    await expect(
      client.beta.environments.create({ name: "e", bogus: 1 } as unknown as { name: string }),
    ).rejects.toThrow(/bogus/);
    await expect(client.beta.agents.create({ name: "", model: "m" })).rejects.toBeInstanceOf(
      Anthropic.BadRequestError,
    );
    await expect(client.beta.skills.list({ limit: 0 })).rejects.toThrow(/limit/);
    await expect(client.beta.skills.list({ page: "forged" })).rejects.toThrow(/cursor/);
    const form = new FormData();
    form.append("files[]", new File([SKILL_MD], "x/SKILL.md"));
    form.append("colour", "blue");
    const response = await fetch(`${server.url}/v1/skills`, {
      method: "POST",
      headers: { "x-api-key": KEY },
      body: form,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/unknown field \\"colour\\"/);
  });

  it("keeps an idle connection for a minute: a client busy between requests finds it open", async () => {
    // Node's 5 s default made a request sent after a long synchronous zip build (seconds on a loaded machine)
    // go out on a connection the server had just closed: the SDK's "Connection error.".
    const response = await fetch(`${server.url}/v1/skills`, { headers: { "x-api-key": KEY } });
    await response.body?.cancel();
    const timeout = /timeout=(\d+)/.exec(response.headers.get("keep-alive") ?? "")?.[1];
    expect(Number(timeout)).toBeGreaterThanOrEqual(60);
  });

  it("left nothing behind", async () => {
    expect((await client.beta.skills.list()).data).toEqual([]);
    expect((await client.beta.environments.list()).data).toEqual([]);
    expect((await client.beta.agents.list()).data).toEqual([]);
  });
});
