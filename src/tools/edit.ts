import * as os from "node:os";
import * as z from "zod";
import { assertNever } from "../diagnostics.js";
import { type FileModeOps, writeFileAtomic } from "../io/atomic-write.js";
import { errorCode, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolOutput, toolError } from "./define-tool.js";
import { unifiedDiff } from "./diff.js";
import { findMatches, replaceRanges } from "./edit-match.js";
import { EDIT_INPUT_SCHEMA } from "./input-schemas.js";
import { BINARY_SNIFF_BYTES, LEGACY_PATH_KEY } from "./read.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";

export const EDIT_DESCRIPTION = `Replace text in an existing file.

- file_path: absolute (preferred), relative to the working directory, or starting with ~.
- old_string must match the file's text exactly, including indentation; Read the file first, and leave out the line-number prefix (number and tab) Read adds. When there is no exact match, a match that ignores trailing whitespace, smart quotes, Unicode dashes and spaces is tried.
- old_string must occur exactly once, unless replace_all is true (then every occurrence is replaced). If it occurs more than once, include more surrounding lines to make it unique.
- The file's line endings (LF or CRLF) and byte-order mark are kept; write old_string and new_string with plain newlines.
- Use Write to create a file.`;

/** The `Edit` tool's input schema: the single source of its JSON schema and its parsing, built on first use. */
export const editInput = lazy(() =>
  z.object({
    file_path: z.string().min(1).describe("The path of the file to edit"),
    old_string: z.string().describe("The exact text to replace"),
    new_string: z.string().describe("The text to put in its place"),
    replace_all: z.boolean().optional().describe("Replace every occurrence (default false)"),
  }),
);
export type EditInput = z.infer<ReturnType<typeof editInput>>;

/** What an edit reports in `details`. */
export interface EditDetails {
  path: string;
  replacements: number;
  /** True when the text was found only after normalisation. */
  fuzzy: boolean;
  /** Unified diff of the change (LF line endings). */
  diff: string;
}

export interface EditToolOptions {
  fs: FsOps;
  /** Keeps the mode bits of the edited file. Optional. */
  modes?: FileModeOps;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
}

const BOM = "\uFEFF";

/**
 * The `Edit` tool: exact-then-fuzzy unique match, keeps CRLF and BOM, atomic write (temp + rename in the same
 * dir), a unified diff in `details` (`EditDetails`).
 */
export function createEditTool(options: EditToolOptions): Tool {
  const { fs, modes } = options;
  const homeDir = options.homeDir ?? os.homedir();
  return defineTool({
    name: "Edit",
    description: EDIT_DESCRIPTION,
    input: editInput,
    inputSchema: EDIT_INPUT_SCHEMA,
    readOnly: false,
    snippet: "Replace exact text in a file",
    guidelines: ["Prefer Edit over Write for changes to an existing file."],
    legacyKeys: LEGACY_PATH_KEY,
    subject: (input) => input.file_path,
    async execute(input, ctx): Promise<ToolOutput> {
      const abs = resolveToolPath(input.file_path, ctx.cwd, homeDir);
      const shown = displayPath(abs, ctx.cwd);
      const oldText = input.old_string.replace(/\r\n/g, "\n");
      const newText = input.new_string.replace(/\r\n/g, "\n");
      if (oldText === "") {
        return toolError("old_string is empty. Give the text to replace; to create a file, use Write.");
      }
      if (oldText === newText)
        return toolError("old_string and new_string are identical: nothing to change.");

      let kind: string;
      try {
        kind = (await fs.stat(abs)).kind;
      } catch (error) {
        if (errorCode(error) === "ENOENT")
          return toolError(`File not found: ${shown}. Use Write to create it.`);
        throw error;
      }
      if (kind === "dir") return toolError(`${shown} is a directory, not a file.`);
      if ((await fs.readHead(abs, BINARY_SNIFF_BYTES)).binary) {
        return toolError(`Cannot edit ${shown}: it is a binary file.`);
      }

      const raw = await fs.readFile(abs);
      const bom = raw.startsWith(BOM);
      const body = bom ? raw.slice(BOM.length) : raw;
      const crlf = body.includes("\r\n");
      const content = crlf ? body.replace(/\r\n/g, "\n") : body;

      const match = findMatches(content, oldText, input.replace_all ?? false);
      switch (match.kind) {
        case "not-found":
          return toolError(
            `old_string was not found in ${shown}. It must match the file's text, indentation included: ` +
              "Read the file again and copy the lines exactly.",
          );
        case "ambiguous":
          return toolError(
            `old_string matches ${match.count} places in ${shown}. Add surrounding lines to old_string so it ` +
              "matches exactly one, or set replace_all to true to replace every occurrence.",
          );
        case "found":
          break;
        default:
          return assertNever(match);
      }

      const updated = replaceRanges(content, match.ranges, newText);
      if (updated === content) return toolError(`The edit leaves ${shown} unchanged.`);
      const restored = (bom ? BOM : "") + (crlf ? updated.replace(/\n/g, "\r\n") : updated);
      await writeFileAtomic(fs, abs, restored, modes);

      const count = match.ranges.length;
      const details: EditDetails = {
        path: abs,
        replacements: count,
        fuzzy: match.fuzzy,
        diff: unifiedDiff(content, updated, shown),
      };
      const how = match.fuzzy ? " (matched after normalising whitespace, quotes, dashes and Unicode)" : "";
      return {
        content: `Edited ${shown}: replaced ${count} occurrence${count === 1 ? "" : "s"}${how}.`,
        details,
        touchedPaths: [abs],
      };
    },
  });
}
