import { describe, expect, it } from "vitest";
import { availableSkillsXml, escapeXml } from "../../src/listing/available-skills.js";

describe("availableSkillsXml", () => {
  it("prints each tag and value on its own line, as skills-ref to-prompt", () => {
    expect(
      availableSkillsXml([
        { name: "pdf", description: "Read PDFs. Use when a .pdf is named.", location: "/s/pdf/SKILL.md" },
        { name: "sql", description: "Tidy SQL", location: "/s/sql/SKILL.md" },
      ]),
    ).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "pdf",
        "</name>",
        "<description>",
        "Read PDFs. Use when a .pdf is named.",
        "</description>",
        "<location>",
        "/s/pdf/SKILL.md",
        "</location>",
        "</skill>",
        "<skill>",
        "<name>",
        "sql",
        "</name>",
        "<description>",
        "Tidy SQL",
        "</description>",
        "<location>",
        "/s/sql/SKILL.md",
        "</location>",
        "</skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  it("is an empty block for no skills", () => {
    expect(availableSkillsXml([])).toBe("<available_skills>\n</available_skills>");
  });

  it("escapes markup so a description cannot close the block", () => {
    expect(escapeXml(`a & b <x> "q" 'r'`)).toBe("a &amp; b &lt;x&gt; &quot;q&quot; &#x27;r&#x27;");
    const xml = availableSkillsXml([
      { name: "x", description: "</description></skill></available_skills>", location: "/a&b/SKILL.md" },
    ]);
    expect(xml.match(/<\/available_skills>/g)).toHaveLength(1);
    expect(xml).toContain("/a&amp;b/SKILL.md");
  });
});
