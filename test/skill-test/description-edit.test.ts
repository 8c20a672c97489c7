import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/skill/frontmatter.js";
import { splitFrontmatter } from "../../src/skill/frontmatter-core.js";
import { withDescription } from "../../src/skill-test/description-edit.js";

const NEW = "Deploys releases to production. Use when asked to ship.";

function edited(text: string, description = NEW): string {
  const result = withDescription(text, description);
  if (!result.ok) throw new Error(result.reason);
  return result.text;
}

describe("withDescription", () => {
  it.each([
    [
      "a plain one-line value",
      "---\nname: deploy\ndescription: Helps.\nallowed-tools: Bash\n---\nBody\n",
      `---\nname: deploy\ndescription: ${NEW}\nallowed-tools: Bash\n---\nBody\n`,
    ],
    [
      "a folded block scalar with its indented lines",
      "---\nname: deploy\ndescription: >\n  Helps\n  a lot.\n\n# kept comment\nmodel: sonnet\n---\nBody\n",
      `---\nname: deploy\ndescription: ${NEW}\n\n# kept comment\nmodel: sonnet\n---\nBody\n`,
    ],
    [
      "CRLF line ends",
      "---\r\nname: deploy\r\ndescription: Helps.\r\n---\r\nBody\r\n",
      `---\r\nname: deploy\r\ndescription: ${NEW}\r\n---\r\nBody\r\n`,
    ],
    [
      "no description key: after name",
      "---\nname: deploy\nmodel: sonnet\n---\nBody\n",
      `---\nname: deploy\ndescription: ${NEW}\nmodel: sonnet\n---\nBody\n`,
    ],
    ["no frontmatter", "Body only\n", `---\ndescription: ${NEW}\n---\nBody only\n`],
    ["a BOM stays", "\uFEFF---\ndescription: old\n---\nx", `\uFEFF---\ndescription: ${NEW}\n---\nx`],
  ])("%s", (_, before, after) => {
    expect(edited(before)).toBe(after);
  });

  it("quotes a value YAML would read otherwise, and it reads back as given", () => {
    for (const description of ["Use: when asked #now", "true", "- a list?", "'quoted' start", "100"]) {
      const text = edited("---\nname: x\ndescription: d\n---\nB\n", description);
      const frontmatter = splitFrontmatter(text).frontmatter ?? "";
      expect(parseFrontmatter(frontmatter).data.description, description).toBe(description);
      expect(text.startsWith("---\nname: x\ndescription: ")).toBe(true);
      expect(text.endsWith("\n---\nB\n")).toBe(true);
    }
  });

  it.each([
    ["an unclosed frontmatter", "---\ndescription: d\nBody\n", "no closing ---"],
    ["description twice", "---\ndescription: a\ndescription: b\n---\n", "description: twice"],
  ])("refuses %s", (_, text, reason) => {
    const result = withDescription(text, NEW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it("refuses a description over several lines", () => {
    expect(withDescription("---\ndescription: a\n---\n", "one\ntwo").ok).toBe(false);
  });
});
