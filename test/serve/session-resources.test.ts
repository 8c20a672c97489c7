import { describe, expect, it } from "vitest";
import { resourceAnnouncement, resourcePrompt } from "../../src/serve/sessions/resource-prompt.js";
import {
  type AttachedResource,
  mountPathProblem,
  mountsClash,
} from "../../src/serve/store/session-resources.js";

const STORE: AttachedResource = {
  id: "sesrsc_1",
  type: "memory_store",
  memory_store_id: "memstore_1",
  access: "read_only",
  description: "What the team learned",
  instructions: "Check preferences before answering.",
  mount_path: "/mnt/memory/team-notes",
  name: "Team Notes",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};
const FILE: AttachedResource = {
  id: "sesrsc_2",
  type: "file",
  file_id: "file_1",
  mount_path: "/mnt/session/uploads/file_1",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

describe("session resources", () => {
  it("puts each attachment's mount, access, description and instructions in the prompt section", () => {
    expect(resourcePrompt([])).toBe("");
    const prompt = resourcePrompt([STORE, FILE]);
    expect(prompt).toContain('/mnt/memory/team-notes: the memory store "Team Notes" (read-only).');
    expect(prompt).toContain("Description: What the team learned");
    expect(prompt).toContain("Instructions: Check preferences before answering.");
    expect(prompt).toContain("/mnt/session/uploads/file_1: an uploaded file (file_1), read-only.");
  });

  it("announces later attachments in one system-reminder", () => {
    const note = resourceAnnouncement([FILE]);
    expect(note.startsWith("<system-reminder>\n")).toBe(true);
    expect(note.endsWith("\n</system-reminder>")).toBe(true);
    expect(note).toContain("/mnt/session/uploads/file_1");
  });

  it("refuses mount paths that are relative, not normalised, over the path limits, with control characters, or in a reserved root", () => {
    expect(mountPathProblem("/data/in.csv")).toBeUndefined();
    for (const bad of [
      "data/in.csv",
      "/",
      "/data/../etc",
      "/data//x",
      "/data/x/",
      "/mnt/memory/x",
      "/workspace/a",
      "/mnt",
      "/mnt/skills",
      "/mnt/skills/greet/SKILL.md",
      "/mnt/session",
      "/mnt/session/uploads/file_2",
      "/data/a\u0000b",
      "/data/a\nb",
      "/data/\u202Eevil",
      `/${Array.from({ length: 21 }, () => "d").join("/")}`,
    ]) {
      expect(mountPathProblem(bad), bad).toBeDefined();
    }
    expect(mountPathProblem(`/${"a".repeat(1024)}`)).toBeDefined();
    expect(mountPathProblem("/mnt/session/uploads/file_1", "file_1")).toBeUndefined();
    expect(mountPathProblem("/mnt/session/uploads/file_2", "file_1")).toBeDefined();
    expect(mountsClash("/data", "/data/x")).toBe(true);
    expect(mountsClash("/data/x", "/data/x")).toBe(true);
    expect(mountsClash("/data/x", "/data/xy")).toBe(false);
  });
});
