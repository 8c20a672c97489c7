/**
 * Codex's `agents/openai.yaml` read as Codex's loader reads it (issue #42 item 3, checked against its source):
 * strings kept on one line, a value over Codex's limit dropped alone, `policy.allow_implicit_invocation`, and
 * `dependencies.tools` entries as needs.
 */
import { describe, expect, it } from "vitest";
import { lazyYaml } from "../../src/skill/frontmatter-core.js";
import { MAX_DISPLAY_NAME_CHARS, parseOpenaiYaml } from "../../src/skill/openai-yaml.js";

const parse = async (source: string) => parseOpenaiYaml(source, "/s/agents/openai.yaml", await lazyYaml()());

describe("parseOpenaiYaml", () => {
  it("keeps each interface string on one line and drops one over Codex's limit alone, with a warning", async () => {
    const long = "x".repeat(MAX_DISPLAY_NAME_CHARS + 1);
    const { metadata, diagnostics } = await parse(
      `interface:\n  display_name: "${long}"\n  short_description: |\n    Two\n    lines\n  default_prompt: "Use  $demo\\tnow"\n`,
    );
    expect(metadata?.interface).toEqual({ shortDescription: "Two lines", defaultPrompt: "Use $demo now" });
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["field-invalid", `interface.display_name: longer than ${MAX_DISPLAY_NAME_CHARS} characters; ignored`],
    ]);
  });

  it("reads the policy and the dependency types Codex writes (env_var, mcp, cli)", async () => {
    const { metadata, diagnostics } = await parse(
      [
        "policy:",
        "  allow_implicit_invocation: false",
        "dependencies:",
        "  tools:",
        "    - { type: env_var, value: GITHUB_TOKEN, description: token }",
        "    - { type: mcp, value: github, transport: streamable_http, url: 'https://example.com/mcp' }",
        "    - { type: cli, value: gh }",
        "    - { type: mcp, value: local-gh, transport: stdio, command: gh-mcp }",
        "",
      ].join("\n"),
    );
    expect(diagnostics).toEqual([]);
    expect(metadata?.allowImplicitInvocation).toBe(false);
    expect(metadata?.needs).toEqual([
      { kind: "env", name: "GITHUB_TOKEN" },
      { kind: "mcp", server: "github" },
      { kind: "command", name: "gh" },
      { kind: "mcp", server: "local-gh" },
    ]);
  });
});
