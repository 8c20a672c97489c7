import { afterEach, describe, expect, it } from "vitest";
import type { AskPermission } from "../../src/permissions/decision.js";
import {
  doneResult,
  type Harness,
  type HarnessOptions,
  resultText,
  skillMd,
  startHarness,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/danger/SKILL.md": skillMd(
    "description: Grants echo\nallowed-tools: Bash(echo:*)",
    "Danger zone.",
  ),
  "project/.claude/skills/safe/SKILL.md": skillMd("description: Harmless", "Nothing risky."),
  "project/.claude/commands/ops/deploy.md": skillMd("description: Deploy\nallowed-tools: Bash", "Ship."),
};

const NOT_GRANTED =
  "Permission was not granted (no one to ask: allow it with --allowedTools or a permissions.allow rule).";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function settings(permissions: {
  allow?: string[];
  deny?: string[];
  ask?: string[];
}): Record<string, string> {
  return { "project/.claude/settings.local.json": JSON.stringify({ permissions }) };
}

/** The model calls Skill once; returns the tool_result it got back. */
async function modelCalls(skill: string, options: Partial<HarnessOptions> = {}) {
  h = await startHarness({
    ...options,
    files: { ...TREE, ...options.files },
    turns: [toolTurn("Skill", { skill }), textTurn("ok")],
  });
  await h.send("go");
  const [result] = toolResults(h.body(1));
  if (result === undefined) throw new Error("no tool_result");
  return { text: resultText(result), isError: result.is_error === true };
}

function recordingAsk(answer: boolean): {
  ask: AskPermission;
  calls: Array<{ tool: string; prompt: string }>;
} {
  const calls: Array<{ tool: string; prompt: string }> = [];
  return {
    calls,
    ask: async ({ tool, prompt }) => {
      calls.push({ tool, prompt });
      return answer;
    },
  };
}

describe("Skill permissions (SPEC §4)", () => {
  it("headless: a project skill with allowed-tools is denied (a cloned repo names it), saying why and what to do", async () => {
    const { text, isError } = await modelCalls("danger");
    expect(isError).toBe(true);
    expect(text).toBe(
      `<tool_use_error>Allow Skill(danger)? The skill grants tools without asking. ${NOT_GRANTED}</tool_use_error>`,
    );
  });

  it("the repository's committed .claude/settings.json cannot approve its own skill, but its deny rules apply", async () => {
    const committed = (permissions: { allow?: string[]; deny?: string[] }) => ({
      "project/.claude/settings.json": JSON.stringify({ permissions }),
    });
    const self = await modelCalls("danger", { files: committed({ allow: ["Skill(danger)"] }) });
    expect(self).toEqual({
      text: `<tool_use_error>Allow Skill(danger)? The skill grants tools without asking. ${NOT_GRANTED}</tool_use_error>`,
      isError: true,
    });
    const denied = await modelCalls("safe", { files: committed({ deny: ["Skill(safe)"] }) });
    expect(denied.isError).toBe(true);
  });

  it("headless: an ask rule denies, and the result says why and what to do", async () => {
    const { text, isError } = await modelCalls("danger", { files: settings({ ask: ["Skill(danger)"] }) });
    expect(isError).toBe(true);
    expect(text).toBe(
      `<tool_use_error>Allow Skill(danger)? (the rule Skill(danger) asks to confirm) The skill grants tools without asking. ${NOT_GRANTED}</tool_use_error>`,
    );
  });

  it("a safe skill is auto-allowed without asking", async () => {
    const asked = recordingAsk(false);
    const { text, isError } = await modelCalls("safe", { askPermission: asked.ask });
    expect({ text, isError }).toEqual({ text: "Launching skill: safe", isError: false });
    expect(asked.calls).toEqual([]);
  });

  it.each([
    {
      case: "a Skill(name) allow rule in .claude/settings.local.json",
      files: settings({ allow: ["Skill(danger)"] }),
    },
    {
      case: "a Skill(prefix:*) allow rule in ~/.claude/settings.json",
      files: { "home/.claude/settings.json": JSON.stringify({ permissions: { allow: ["Skill(dan:*)"] } }) },
    },
    { case: "--allowedTools Skill", files: {}, session: { allowedTools: ["Skill"] } },
  ])("allowed by $case", async ({ files, session }) => {
    const { text, isError } = await modelCalls("danger", { files, ...(session ? { session } : {}) });
    expect({ text, isError }).toEqual({ text: "Launching skill: danger", isError: false });
  });

  it("a Skill(prefix:*) deny rule wins over a Skill(name) allow rule", async () => {
    const { text, isError } = await modelCalls("ops:deploy", {
      files: settings({ allow: ["Skill(ops:deploy)"], deny: ["Skill(ops:*)"] }),
    });
    expect(isError).toBe(true);
    expect(text).toBe(
      "<tool_use_error>Permission to use Skill(ops:deploy) was denied by the rule Skill(ops:*).</tool_use_error>",
    );
  });

  it("a deny rule refuses even a safe skill, and asks no one", async () => {
    const asked = recordingAsk(true);
    const { text, isError } = await modelCalls("safe", {
      files: settings({ deny: ["Skill(safe)"] }),
      askPermission: asked.ask,
    });
    expect(isError).toBe(true);
    expect(text).toContain("denied by the rule Skill(safe)");
    expect(asked.calls).toEqual([]);
  });

  it.each([
    { answer: true, want: { text: "Launching skill: danger", isError: false } },
    {
      answer: false,
      want: { text: "<tool_use_error>The user denied permission.</tool_use_error>", isError: true },
    },
  ])(
    "askPermission is asked once with a prompt, and its answer ($answer) is honoured",
    async ({ answer, want }) => {
      const asked = recordingAsk(answer);
      const result = await modelCalls("danger", {
        files: settings({ ask: ["Skill(danger)"] }),
        askPermission: asked.ask,
      });
      expect(result).toEqual(want);
      expect(asked.calls).toEqual([
        {
          tool: "Skill",
          prompt:
            "Allow Skill(danger)? (the rule Skill(danger) asks to confirm) The skill grants tools without asking.",
        },
      ]);
    },
  );

  it("an ask rule makes even a safe skill ask", async () => {
    const asked = recordingAsk(true);
    const { text } = await modelCalls("safe", {
      files: settings({ ask: ["Skill(safe)"] }),
      askPermission: asked.ask,
    });
    expect(text).toBe("Launching skill: safe");
    expect(asked.calls).toHaveLength(1);
    expect(asked.calls[0]?.prompt).toContain("Skill(safe)");
  });
});

describe("the user's /name goes through the same permissions", () => {
  it("typing /danger in headless mode runs it: the person typing is the yes an ask wants", async () => {
    h = await startHarness({ files: TREE, turns: [textTurn("done")] });
    const events = await h.send("/danger");
    expect(doneResult(events).cause).toBe("end_turn");
    expect(h.bodies()).toHaveLength(1);
  });

  it("a deny rule refuses a typed /ops:deploy with no model request", async () => {
    h = await startHarness({
      files: { ...TREE, ...settings({ deny: ["Skill(ops:*)"] }) },
      turns: [textTurn("no")],
    });
    const events = await h.send("/ops:deploy now");
    const result = doneResult(events);
    expect(result.cause).toBe("blocked");
    expect(result.text).toBe("Permission to use Skill(ops:deploy) was denied by the rule Skill(ops:*).");
    expect(h.bodies()).toHaveLength(0);
  });
});
