import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CORPUS_SKILLS,
  copyServed,
  FIXTURE_SKILLS,
  isAlive,
  SERVER_SCRIPT,
  type ServedSkills,
  SKILLS_SERVER,
  waitFor,
} from "../mcp/support.js";
import { describeWithCorpus } from "../support/corpus.js";
import {
  type Harness,
  type HarnessOptions,
  INIT_ENTRY,
  lastUser,
  listingBlock,
  plainBlocks,
  resultText,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

/** An inline `--mcp-config` with the test server as `tst` (pid written to `{tree}/tst.pid`), plus `extra`. */
function mcpConfig(extra: Record<string, unknown> = {}): string {
  const tst = { command: process.execPath, args: [SERVER_SCRIPT, "--pid-file", "{tree}/tst.pid"] };
  return JSON.stringify({ mcpServers: { tst, ...extra } });
}

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

async function start(options: Omit<HarnessOptions, "engine"> & { config?: string }): Promise<Harness> {
  e = await startHarness({ ...options, engine: { mcpConfigs: [options.config ?? mcpConfig()] } });
  return e;
}

describe("MCP in a session (SPEC §12)", () => {
  it("offers mcp__tst__add as a tool and returns the sum to the model; closing stops the server", async () => {
    const s = await start({ turns: [toolTurn("mcp__tst__add", { a: 2, b: 40 }), textTurn("42")] });
    expect(s.opened.tools).toContain("mcp__tst__add");
    await s.send("add 2 and 40");
    expect(s.body(0).tools?.map((t) => t.name)).toEqual(
      expect.arrayContaining(["mcp__tst__add", "mcp__tst__fail"]),
    );
    const [result] = toolResults(s.body(1));
    expect(result?.is_error).toBeFalsy();
    expect(result && resultText(result)).toBe("42");
    const pid = Number(readFileSync(s.tree.path("tst.pid"), "utf8"));
    expect(isAlive(pid)).toBe(true);
    await s.close();
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
  });

  it("a deny rule mcp__tst__add blocks the call", async () => {
    const settings = { permissions: { deny: ["mcp__tst__add"] } };
    const s = await start({
      files: { "project/.claude/settings.json": JSON.stringify(settings) },
      turns: [toolTurn("mcp__tst__add", { a: 2, b: 40 }), textTurn("denied")],
    });
    await s.send("add 2 and 40");
    const [result] = toolResults(s.body(1));
    expect(result?.is_error).toBe(true);
    expect(result && resultText(result)).toContain("Permission to use mcp__tst__add has been denied.");
  });

  it("a typed /mcp__tst__review a.ts security sends the prompt's text with the args mapped", async () => {
    const s = await start({ turns: [textTurn("reviewed")] });
    await s.send("/mcp__tst__review a.ts security");
    const blocks = plainBlocks(lastUser(s.body(0)).content);
    expect(blocks.slice(-2)).toEqual([
      {
        type: "text",
        text: "<command-message>mcp__tst__review</command-message>\n<command-name>/mcp__tst__review</command-name>\n<command-args>a.ts security</command-args>\n",
      },
      { type: "text", text: "Review a.ts.\n\nFocus: security" },
    ]);
  });

  it("the prompt is a user command only: the model's Skill call is refused; missing args are explained", async () => {
    const s = await start({ turns: [toolTurn("Skill", { skill: "mcp__tst__review" }), textTurn("ok")] });
    await s.send("review something");
    const [refused] = toolResults(s.body(1));
    expect(refused?.is_error).toBe(true);
    // Prompts are for people: to the model the name does not exist (Claude Code's answer).
    expect(refused && resultText(refused)).toBe(
      "<tool_use_error>Unknown skill: mcp__tst__review</tool_use_error>",
    );
    const before = s.bodies().length;
    const events = await s.send("/mcp__tst__review");
    const done = events.findLast((ev) => ev.type === "done");
    expect(done?.type === "done" && done.result.text).toBe(
      "Could not get mcp__tst__review: Missing required argument file for /mcp__tst__review. Usage: /mcp__tst__review <file> [focus]",
    );
    expect(s.bodies()).toHaveLength(before);
  });

  it("the MCP skill mcp__tst__greet is listed and invocable; its inline shell and hooks never run", async () => {
    const s = await start({
      turns: [
        toolTurn("Skill", { skill: "mcp__tst__greet", args: "Ada" }),
        toolTurn("Bash", { command: "echo after" }),
        textTurn("greeted"),
      ],
      session: { allowedTools: ["Bash(echo:*)"] },
    });
    await s.send("greet Ada");
    // Listed (the prompt and the disable-model-invocation skill are not).
    expect(textBlocks(lastUser(s.body(0)).content)[0]).toBe(
      listingBlock("- mcp__tst__greet: Greets someone warmly", INIT_ENTRY),
    );
    const [launch] = toolResults(s.body(1));
    expect(launch && resultText(launch)).toBe("Launching skill: mcp__tst__greet");
    const expansion = textBlocks(lastUser(s.body(1)).content).join("\n");
    expect(expansion).toContain("Say hello to Ada.");
    expect(expansion).toContain("!`touch SHOULD_NOT_EXIST`");
    const [after] = toolResults(s.body(2));
    expect(after && resultText(after)).toContain("after");
    expect(existsSync(join(s.cwd, "SHOULD_NOT_EXIST"))).toBe(false);
    expect(existsSync(join(s.cwd, "HOOK_SHOULD_NOT_RUN"))).toBe(false);
  });

  it("a skill a server publishes mid-session (resources list_changed) reaches the model as a listing delta", async () => {
    const s = await start({
      turns: [
        toolTurn("mcp__tst__publish_skill", {}),
        toolTurn("Skill", { skill: "mcp__tst__fresh", args: "Bob" }),
        textTurn("used the fresh skill"),
      ],
      session: { allowedTools: ["mcp__tst__publish_skill", "Skill(mcp__tst__fresh)"] },
    });
    await s.send("publish something");
    expect(textBlocks(lastUser(s.body(0)).content)[0]).toBe(
      listingBlock("- mcp__tst__greet: Greets someone warmly", INIT_ENTRY),
    );
    // The request right after the tool call carries the new skill as a delta.
    const after = textBlocks(lastUser(s.body(1)).content);
    expect(after).toContain(listingBlock("- mcp__tst__fresh: Freshly published"));
    const [launch] = toolResults(s.body(2));
    expect(launch && resultText(launch)).toBe("Launching skill: mcp__tst__fresh");
    expect(textBlocks(lastUser(s.body(2)).content).join("\n")).toContain("Fresh body for Bob.");
  });

  it("the model reads an MCP skill's file with ReadMcpResourceTool (read-only: no permission needed)", async () => {
    const s = await start({
      turns: [
        toolTurn("ReadMcpResourceTool", { server: "tst", uri: "skill://greet/SKILL.md" }),
        textTurn("read it"),
      ],
    });
    expect(s.opened.tools).toContain("ReadMcpResourceTool");
    await s.send("read the greet skill's file");
    const [result] = toolResults(s.body(1));
    expect(result?.is_error).toBeFalsy();
    expect(result && resultText(result)).toContain("Say hello to $ARGUMENTS.");
  });

  it("a prompt a server adds mid-session (prompts list_changed) is a /command in the next turn", async () => {
    const s = await start({
      turns: [toolTurn("mcp__tst__add_prompt", {}), textTurn("added"), textTurn("summarized")],
      session: { allowedTools: ["mcp__tst__add_prompt"] },
    });
    await s.send("add a prompt");
    await s.send("/mcp__tst__summarize");
    expect(textBlocks(lastUser(s.body(2)).content)).toContain("Summarize everything so far.");
  });

  it("a server that fails to start is a diagnostic and the session still works with the others", async () => {
    const broken = { command: process.execPath, args: [SERVER_SCRIPT, "--crash"] };
    const s = await start({
      config: mcpConfig({ broken }),
      turns: [toolTurn("mcp__tst__add", { a: 1, b: 1 }), textTurn("still here")],
    });
    const { diagnostics } = await s.engine.discover();
    const failed = diagnostics.filter((d) => d.code === "mcp-failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.message).toContain("broken");
    expect(s.opened.tools.some((t) => t.startsWith("mcp__broken__"))).toBe(false);
    await s.send("add 1 and 1");
    const [result] = toolResults(s.body(1));
    expect(result && resultText(result)).toBe("2");
  });
});

/**
 * A third-party MCP skills server over `skills`: the server `corpus` serves the two `served` skills and
 * publishes `extra` when asked.
 */
function thirdPartySkillsServer(skills: ServedSkills) {
  const [first, second] = skills.served;
  let root: string | undefined;
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  /** A session whose only MCP server `corpus` serves the two skills from a copy of them. */
  async function corpusSession(turns: Parameters<typeof start>[0]["turns"], allowed: string[] = []) {
    root = mkdtempSync(join(tmpdir(), "skillwright-corpus-"));
    const corpus = {
      command: process.execPath,
      args: [
        SKILLS_SERVER,
        ...["--root", copyServed(skills, root), "--extra", join(skills.dir, skills.extra)],
        ...["--instructions", "Load a corpus skill before styling or testing anything."],
      ],
    };
    return start({
      config: JSON.stringify({ mcpServers: { corpus } }),
      turns,
      session: { allowedTools: allowed },
    });
  }

  it("lists the server's skills from skills/list, loads one verified, and puts its instructions in the system prompt", async () => {
    const s = await corpusSession([
      toolTurn("Skill", { skill: `mcp__corpus__${second}` }),
      textTurn("loaded"),
    ]);
    await s.send("test my web app");
    const listing = textBlocks(lastUser(s.body(0)).content)[0] ?? "";
    expect(listing).toContain(`\n- mcp__corpus__${first}: ${skills.starts[0]}`);
    expect(listing).toContain(`\n- mcp__corpus__${second}: ${skills.starts[1]}`);
    const system =
      s
        .body(0)
        .system?.map((b) => b.text)
        .join("\n") ?? "";
    expect(system).toContain(
      "# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n## corpus\nLoad a corpus skill before styling or testing anything.",
    );
    const [launch] = toolResults(s.body(1));
    expect(launch && resultText(launch)).toBe(`Launching skill: mcp__corpus__${second}`);
    const expansion = textBlocks(lastUser(s.body(1)).content).join("\n");
    const original = readFileSync(join(skills.dir, second, "SKILL.md"), "utf8");
    const lastLine = original.trim().split("\n").at(-1) ?? "";
    expect(expansion).toContain(`Base directory for this skill: skill://${second}`);
    expect(expansion).toContain(lastLine);
  });

  it("the model finds the catalog with ListMcpResourcesTool and reads a skill's file with ReadMcpResourceTool", async () => {
    const s = await corpusSession([
      toolTurn("ListMcpResourcesTool", { server: "corpus" }),
      toolTurn("ReadMcpResourceTool", { server: "corpus", uri: `skill://${second}/${skills.file}` }),
      textTurn("read"),
    ]);
    expect(s.opened.tools).toEqual(expect.arrayContaining(["ListMcpResourcesTool", "ReadMcpResourceTool"]));
    await s.send("what does the corpus server offer?");
    const [listed] = toolResults(s.body(1));
    expect(listed?.is_error).toBeFalsy();
    const entries = JSON.parse(listed ? resultText(listed) : "[]") as { uri: string; server: string }[];
    expect(entries.map((e) => [e.server, e.uri])).toEqual(
      expect.arrayContaining([
        ["corpus", `skill://${first}/SKILL.md`],
        ["corpus", `skill://${second}/SKILL.md`],
      ]),
    );
    const [file] = toolResults(s.body(2));
    expect(file?.is_error).toBeFalsy();
    expect(file && resultText(file)).toContain(
      readFileSync(join(skills.dir, second, skills.file), "utf8").split("\n")[0] ?? "?",
    );
  });

  it("a skill the server publishes mid-session (its SDK sends resources list_changed) reaches the model as a listing delta", async () => {
    const extra = `mcp__corpus__${skills.extra}`;
    const s = await corpusSession(
      [toolTurn("mcp__corpus__publish_skill", {}), toolTurn("Skill", { skill: extra }), textTurn("done")],
      ["mcp__corpus__publish_skill", `Skill(${extra})`],
    );
    await s.send("publish and use the new skill");
    expect(textBlocks(lastUser(s.body(0)).content)[0]).not.toContain(skills.extra);
    const delta = textBlocks(lastUser(s.body(1)).content).find((t) => t.includes(skills.extra)) ?? "";
    expect(delta).toMatch(
      new RegExp(
        `^<system-reminder>\\nThe following skills are available for use with the Skill tool:\\n\\n- ${extra}: `,
      ),
    );
    const [launch] = toolResults(s.body(2));
    expect(launch && resultText(launch)).toBe(`Launching skill: ${extra}`);
  });
}

describe("a third-party MCP skills server (official SDK v2 server, SEP-2640) over skills the tests wrote", () => {
  thirdPartySkillsServer(FIXTURE_SKILLS);
});

describeWithCorpus(
  "a third-party MCP skills server (official SDK v2 server, SEP-2640) over real corpus skills",
  () => {
    thirdPartySkillsServer(CORPUS_SKILLS);
  },
);
