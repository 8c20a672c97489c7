import { describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from "../../src/tools/builtin.js";

describe("createBuiltinTools", () => {
  it("returns Read, Write, Edit, Bash, Grep, Glob, LS with the right read-only flags", () => {
    const tools = createBuiltinTools({ fs: createNodeFs(), shell: createNodeShell() });
    expect(tools.map((t) => [t.name, t.readOnly])).toEqual([
      ["Read", true],
      ["Write", false],
      ["Edit", false],
      ["Bash", false],
      ["Grep", true],
      ["Glob", true],
      ["LS", true],
    ]);
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES]);
  });

  it("gives every tool an object input schema without $schema that lets unknown keys through", () => {
    for (const tool of createBuiltinTools({ fs: createNodeFs(), shell: createNodeShell() })) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      // Claude Code ignores keys it does not know; so do we (SPEC §14.12).
      expect(tool.inputSchema).not.toHaveProperty("additionalProperties");
      expect(tool.description.length).toBeGreaterThan(50);
    }
  });
});
