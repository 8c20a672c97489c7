// load_reference under Read rules: a file skill's reference is a file, so `Read(path)` deny and ask rules that
// cover it apply to load_reference too (the same matching as the Read tool); a memory skill's reference has no
// path and keeps the `load_reference(skill:name)` rule. Real session, real files, scripted model server.
import { afterEach, describe, expect, it } from "vitest";
import type { AskPermission } from "../../src/permissions/decision.js";
import { createMemorySource } from "../../src/sources/memory-source.js";
import {
  type Harness,
  type HarnessOptions,
  resultText,
  skillMd,
  startHarness,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

const SECRET = "TOP-SECRET-TOKEN-42";

const TREE = {
  "project/.claude/skills/docs/SKILL.md": skillMd("description: Docs", "Read guide.md when needed."),
  "project/.claude/skills/docs/guide.md": "the guide",
  "project/.claude/skills/docs/secret.env": SECRET,
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function settings(permissions: { allow?: string[]; deny?: string[]; ask?: string[] }) {
  return { "project/.claude/settings.local.json": JSON.stringify({ permissions }) };
}

/** The model calls load_reference once per name; returns each tool_result's text and error flag. */
async function loads(names: string[], options: Partial<HarnessOptions> = {}) {
  h = await startHarness({
    ...options,
    files: { ...TREE, ...options.files },
    session: { loadReference: true, ...options.session },
    turns: [...names.map((name) => toolTurn("load_reference", { skill: "docs", name })), textTurn("ok")],
  });
  await h.send("go");
  return names.map((_, i) => {
    const [result] = toolResults(h?.body(i + 1) ?? { model: "", messages: [] });
    if (result === undefined) throw new Error(`no tool_result #${i}`);
    return { text: resultText(result), isError: result.is_error === true };
  });
}

function recordingAsk(answer: boolean) {
  const calls: Array<{ tool: string; prompt: string }> = [];
  const ask: AskPermission = async ({ tool, prompt }) => {
    calls.push({ tool, prompt });
    return answer;
  };
  return { ask, calls };
}

describe("load_reference of a file skill obeys Read rules on the file (security)", () => {
  it("a Read deny rule with a relative path stops the read; other references still load", async () => {
    const [secret, guide] = await loads(["secret.env", "guide.md"], {
      files: settings({ deny: ["Read(./.claude/skills/docs/secret.env)"] }),
    });
    expect(secret?.isError).toBe(true);
    expect(secret?.text).not.toContain(SECRET);
    expect(secret?.text).toContain("Read(./.claude/skills/docs/secret.env)");
    expect(guide).toEqual({ text: "the guide", isError: false });
  });

  it("a glob deny rule (`Read(**/*.env)`) stops it even when load_reference itself is allowed", async () => {
    const [secret] = await loads(["secret.env"], {
      files: settings({ deny: ["Read(**/*.env)"], allow: ["load_reference"] }),
    });
    expect(secret?.isError).toBe(true);
    expect(secret?.text).not.toContain(SECRET);
  });

  it("a user skill (outside the project): a `~/` deny rule stops it, other files load without asking", async () => {
    const user = {
      "home/.claude/skills/docs/SKILL.md": skillMd("description: Docs", "See guide.md."),
      "home/.claude/skills/docs/guide.md": "the user guide",
      "home/.claude/skills/docs/secret.env": SECRET,
    };
    const asked = recordingAsk(true);
    h = await startHarness({
      files: { ...user, ...settings({ deny: ["Read(~/.claude/skills/docs/*.env)"] }) },
      session: { loadReference: true },
      askPermission: asked.ask,
      turns: [
        toolTurn("load_reference", { skill: "docs", name: "secret.env" }),
        toolTurn("load_reference", { skill: "docs", name: "guide.md" }),
        textTurn("ok"),
      ],
    });
    await h.send("go");
    const [secret] = toolResults(h.body(1));
    expect(secret?.is_error).toBe(true);
    expect(resultText(secret)).not.toContain(SECRET);
    const [guide] = toolResults(h.body(2));
    expect(resultText(guide)).toBe("the user guide");
    expect(asked.calls).toEqual([]);
  });

  it("a Read ask rule asks the host, naming the file; a no denies, a yes reads", async () => {
    const no = recordingAsk(false);
    const [denied] = await loads(["secret.env"], {
      files: settings({ ask: ["Read(**/*.env)"] }),
      askPermission: no.ask,
    });
    expect(denied?.isError).toBe(true);
    expect(denied?.text).not.toContain(SECRET);
    expect(no.calls).toHaveLength(1);
    expect(no.calls[0]?.tool).toBe("load_reference");
    expect(no.calls[0]?.prompt).toContain("/.claude/skills/docs/secret.env");
    await h?.close();

    const yes = recordingAsk(true);
    const [allowed] = await loads(["secret.env"], {
      files: settings({ ask: ["Read(**/*.env)"] }),
      askPermission: yes.ask,
    });
    expect(allowed).toEqual({ text: SECRET, isError: false });
    expect(yes.calls).toHaveLength(1);
  });

  it("headless, a Read ask rule denies", async () => {
    const [secret] = await loads(["secret.env"], { files: settings({ ask: ["Read(**/*.env)"] }) });
    expect(secret?.isError).toBe(true);
    expect(secret?.text).not.toContain(SECRET);
  });

  it("without Read rules a file reference loads as before, and a Read deny elsewhere does not touch it", async () => {
    const [secret] = await loads(["secret.env"], { files: settings({ deny: ["Read(./src/**)"] }) });
    expect(secret).toEqual({ text: SECRET, isError: false });
  });

  it("a memory skill's reference keeps today's rule: a bare Read deny does not stop it", async () => {
    const memory = createMemorySource({
      skills: [
        {
          name: "pm",
          description: "PM",
          body: "Be a PM.",
          references: [{ name: "tpl", description: "Template", content: "## Background" }],
        },
      ],
    });
    h = await startHarness({
      files: settings({ deny: ["Read"] }),
      engine: { sources: [memory] },
      turns: [toolTurn("load_reference", { skill: "pm", name: "tpl" }), textTurn("ok")],
    });
    await h.send("go");
    const [result] = toolResults(h.body(1));
    expect(result?.is_error).not.toBe(true);
    expect(resultText(result)).toBe("## Background");
  });
});
