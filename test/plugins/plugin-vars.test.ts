// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { describe, expect, it } from "vitest";
import {
  substitutePluginHooks,
  substitutePluginString,
  substitutePluginValue,
  usesPluginDataDir,
} from "../../src/plugins/plugin-vars.js";

const VARS = { root: "/plugins/p", dataDir: "/home/u/.skillwright/plugins/data/p" };

describe("substitutePluginString", () => {
  it.each([
    ["${CLAUDE_PLUGIN_ROOT}/run.sh", "/plugins/p/run.sh"],
    ["${CLAUDE_PLUGIN_DATA}/db ${CLAUDE_PLUGIN_DATA}", `${VARS.dataDir}/db ${VARS.dataDir}`],
    ['bash "${CLAUDE_PLUGIN_ROOT}/a" "${CLAUDE_PLUGIN_DATA}"', `bash "/plugins/p/a" "${VARS.dataDir}"`],
    ["$CLAUDE_PLUGIN_ROOT/x", "$CLAUDE_PLUGIN_ROOT/x"],
    [
      "${CLAUDE_PROJECT_DIR} ${GITHUB_TOKEN} ${CLAUDE_PLUGIN_ROOTS}",
      "${CLAUDE_PROJECT_DIR} ${GITHUB_TOKEN} ${CLAUDE_PLUGIN_ROOTS}",
    ],
  ])("%s", (text, expected) => {
    expect(substitutePluginString(text, VARS)).toBe(expected);
  });

  it("does not substitute again inside a substituted value", () => {
    expect(
      substitutePluginString("${CLAUDE_PLUGIN_ROOT}", { root: "/x/${CLAUDE_PLUGIN_DATA}", dataDir: "/d" }),
    ).toBe("/x/${CLAUDE_PLUGIN_DATA}");
  });
});

describe("substitutePluginValue", () => {
  it("replaces in every string value, deeply, and leaves keys and other values alone", () => {
    const input = {
      command: "node",
      args: ["${CLAUDE_PLUGIN_ROOT}/s.mjs", 3, true, null],
      env: { "${CLAUDE_PLUGIN_ROOT}": "${CLAUDE_PLUGIN_DATA}" },
    };
    expect(substitutePluginValue(input, VARS)).toEqual({
      command: "node",
      args: ["/plugins/p/s.mjs", 3, true, null],
      env: { "${CLAUDE_PLUGIN_ROOT}": VARS.dataDir },
    });
    expect(input.args[0]).toBe("${CLAUDE_PLUGIN_ROOT}/s.mjs");
  });
});

describe("substitutePluginHooks / usesPluginDataDir", () => {
  it("substitutes in hook commands only", () => {
    const hooks = substitutePluginHooks(
      {
        Stop: [
          {
            matcher: "${CLAUDE_PLUGIN_ROOT}",
            hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/h" }],
          },
        ],
      },
      VARS,
    );
    expect(hooks).toEqual({
      Stop: [{ matcher: "${CLAUDE_PLUGIN_ROOT}", hooks: [{ type: "command", command: "/plugins/p/h" }] }],
    });
  });

  it.each([
    [{}, {}, false],
    [{ Stop: [{ hooks: [{ type: "command" as const, command: `cat ${VARS.dataDir}/x` }] }] }, {}, true],
    [{}, { s: { command: "x", env: { D: VARS.dataDir } } }, true],
    [{}, { s: { command: "x", args: [VARS.root] } }, false],
  ])("usesPluginDataDir %#", (hooks, mcpServers, expected) => {
    expect(usesPluginDataDir({ dataDir: VARS.dataDir, hooks, mcpServers })).toBe(expected);
  });
});
