import { describe, expect, it } from "vitest";
import {
  INIT_COMMAND_PROMPT,
  initCommand,
  isUiCommand,
  UI_COMMANDS,
  withBuiltinCommands,
} from "../../src/skill-tool/builtin-commands.js";
import { makeSkill } from "../support/make-skill.js";

describe("built-in commands (SPEC §14.6)", () => {
  it("knows the UI commands, case-sensitively", () => {
    for (const name of ["help", "clear", "compact", "model", "reload", "exit"])
      expect(isUiCommand(name)).toBe(true);
    expect(isUiCommand("Help")).toBe(false);
    expect(isUiCommand("init")).toBe(false);
    expect(UI_COMMANDS).not.toContain("init");
  });

  it("init is a model- and user-invocable command without a base directory", async () => {
    const init = initCommand();
    expect(init).toMatchObject({
      name: "init",
      kind: "command",
      baseDir: "",
      userInvocable: true,
      disableModelInvocation: false,
      context: "inline",
      allowedTools: [],
    });
    expect(await init.loadBody()).toBe(INIT_COMMAND_PROMPT);
    // No placeholder or inline shell: the prompt reaches the model as written.
    expect(INIT_COMMAND_PROMPT).not.toMatch(/\$|!`|```!/);
    expect(INIT_COMMAND_PROMPT).toMatch(/CLAUDE\.md/);
    expect(INIT_COMMAND_PROMPT).toMatch(/AGENTS\.md/);
  });

  it("appends init after the skills, unless a skill or alias takes the name", () => {
    const a = makeSkill({ name: "a" });
    expect(withBuiltinCommands([a]).map((s) => s.name)).toEqual(["a", "init"]);
    expect(withBuiltinCommands([makeSkill({ name: "init" })]).map((s) => s.source)).toEqual(["user"]);
    expect(withBuiltinCommands([makeSkill({ name: "setup", alias: "init" })]).map((s) => s.name)).toEqual([
      "setup",
    ]);
  });
});
