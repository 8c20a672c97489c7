import * as os from "node:os";
import * as path from "node:path";
import * as z from "zod";
import { errorCode, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type ImageMediaType, type Tool, type ToolOutput, toolError } from "./define-tool.js";
import { type ImageScaler, scaleWithSharp } from "./image-scale.js";
import { type ImageSize, imageSize } from "./image-size.js";
import { READ_INPUT_SCHEMA } from "./input-schemas.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatBytes,
  splitLines,
  truncateHead,
  truncateLine,
} from "./truncate.js";

/** Longest line shown; longer lines are cut with a note. */
export const READ_MAX_LINE_CHARS = 2_000;
/** Largest image returned as an image block (after any scaling). */
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Largest image file read at all: a bigger one is refused before it is read. */
export const READ_MAX_IMAGE_FILE_BYTES = 32 * 1024 * 1024;
/** The box an image is scaled down to fit before it is returned (Claude Code's). */
export const READ_IMAGE_BOX: Readonly<ImageSize> = Object.freeze({ width: 2000, height: 2000 });
/** Largest text file read (it is read whole, then sliced). */
export const READ_MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Bytes sniffed for a NUL byte to tell binary files from text. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

const IMAGE_EXTENSIONS: Readonly<Record<string, ImageMediaType>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((b, i) => bytes[at + i] === b);
}

/** True when the bytes carry the magic number of `type`. Pure. */
export function hasImageMagic(bytes: Uint8Array, type: ImageMediaType): boolean {
  switch (type) {
    case "image/png":
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case "image/jpeg":
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case "image/gif":
      return startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"));
    case "image/webp":
      return startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8);
  }
}

export const READ_DESCRIPTION = `Read a file from the local file system.

- file_path: absolute (preferred), relative to the working directory, or starting with ~.
- Lines are returned numbered like cat -n: "{line number}<tab>{line}", starting at 1. The number and the tab are not part of the file: leave them out of Edit's old_string.
- At most ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB are returned per call; the result then ends with "[Showing lines X-Y of Z. Use offset=N to continue.]", so call again with that offset.
- offset is the 1-based line to start at; limit is the number of lines to read. Use them for large files.
- Lines longer than ${READ_MAX_LINE_CHARS} characters are cut.
- PNG, JPEG, GIF and WebP images are returned as images you can see, scaled down to fit ${READ_IMAGE_BOX.width}x${READ_IMAGE_BOX.height} pixels (at most ${READ_MAX_IMAGE_BYTES / (1024 * 1024)} MB once scaled).
- Binary files are refused; use Bash with a suitable tool to inspect them.
- Reading a directory fails: use LS.`;

/** The `Read` tool's input schema: the single source of its JSON schema and its parsing, built on first use. */
export const readInput = lazy(() =>
  z.object({
    file_path: z.string().min(1).describe("The path of the file to read"),
    offset: z.number().int().min(1).optional().describe("1-based line number to start reading at"),
    limit: z.number().int().min(1).optional().describe("Maximum number of lines to read"),
  }),
);
export type ReadInput = z.infer<ReturnType<typeof readInput>>;

/**
 * The key the file tools took before they used Claude Code's `file_path`: still accepted when `file_path` is
 * absent (it costs one rename before parsing), never advertised to the model.
 */
export const LEGACY_PATH_KEY: Readonly<Record<string, string>> = Object.freeze({ path: "file_path" });

/** Read's line prefix, as Claude Code writes it: the 1-based number and a tab. Pure. */
export function numberLine(lineNumber: number, line: string): string {
  return `${lineNumber}\t${line}`;
}

export interface ReadToolOptions {
  fs: FsOps;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
  /** Scales an image larger than `READ_IMAGE_BOX` down to fit it. Default: `scaleWithSharp`. */
  scaleImage?: ImageScaler;
}

const fits = (size: ImageSize, box: ImageSize) => size.width <= box.width && size.height <= box.height;

/** The `Read` tool: text (sliced, numbered `{n}\t{line}` from 1, truncated), images (base64); binary refused. */
export function createReadTool(options: ReadToolOptions): Tool {
  const { fs } = options;
  const homeDir = options.homeDir ?? os.homedir();
  const scaleImage = options.scaleImage ?? scaleWithSharp;

  async function readImage(abs: string, shown: string, type: ImageMediaType, size: number) {
    if (size > READ_MAX_IMAGE_FILE_BYTES) {
      return toolError(
        `Image ${shown} is ${formatBytes(size)}, over the ${formatBytes(READ_MAX_IMAGE_FILE_BYTES)} limit for image files.`,
      );
    }
    const bytes = await fs.readBytes(abs);
    if (!hasImageMagic(bytes, type)) return undefined;
    const declared = imageSize(bytes, type);
    let sent = bytes;
    let note = "";
    if (declared !== undefined && !fits(declared, READ_IMAGE_BOX)) {
      try {
        const scaled = await scaleImage(bytes, type, READ_IMAGE_BOX);
        sent = scaled.bytes;
        note =
          `, scaled from ${declared.width}x${declared.height} to ${scaled.size.width}x${scaled.size.height}` +
          ` (${formatBytes(sent.length)})`;
      } catch (error) {
        return toolError(
          `Image ${shown} is ${declared.width}x${declared.height} pixels and could not be scaled down to fit ` +
            `${READ_IMAGE_BOX.width}x${READ_IMAGE_BOX.height}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    if (sent.length > READ_MAX_IMAGE_BYTES) {
      return toolError(
        `Image ${shown} is ${formatBytes(sent.length)}${note === "" ? "" : " once scaled"}, over the ` +
          `${formatBytes(READ_MAX_IMAGE_BYTES)} limit for images.`,
      );
    }
    const output: ToolOutput = {
      content: [
        { type: "text", text: `Read image ${shown} [${type}, ${formatBytes(size)}${note}]` },
        {
          type: "image",
          source: { type: "base64", media_type: type, data: Buffer.from(sent).toString("base64") },
        },
      ],
      touchedPaths: [abs],
    };
    return output;
  }

  return defineTool({
    name: "Read",
    description: READ_DESCRIPTION,
    input: readInput,
    inputSchema: READ_INPUT_SCHEMA,
    readOnly: true,
    snippet: "Read a file: text with numbered lines, or an image",
    guidelines: ["Read a file before you edit or overwrite it."],
    legacyKeys: LEGACY_PATH_KEY,
    subject: (input) => input.file_path,
    async execute(input, ctx): Promise<ToolOutput> {
      const abs = resolveToolPath(input.file_path, ctx.cwd, homeDir);
      const shown = displayPath(abs, ctx.cwd);
      let stat: Awaited<ReturnType<FsOps["stat"]>>;
      try {
        stat = await fs.stat(abs);
      } catch (error) {
        if (errorCode(error) === "ENOENT") return toolError(`File not found: ${shown}`);
        throw error;
      }
      if (stat.kind === "dir") return toolError(`${shown} is a directory, not a file. Use LS to list it.`);

      const imageType = IMAGE_EXTENSIONS[path.extname(abs).toLowerCase()];
      if (imageType !== undefined) {
        const image = await readImage(abs, shown, imageType, stat.size);
        if (image !== undefined) return image;
      }
      if (stat.size > READ_MAX_FILE_BYTES) {
        return toolError(
          `${shown} is ${formatBytes(stat.size)}, over the ${formatBytes(READ_MAX_FILE_BYTES)} read limit. ` +
            "Use Grep to find the part you need, or Bash (head, tail, sed -n) to read a slice.",
        );
      }
      if ((await fs.readHead(abs, BINARY_SNIFF_BYTES)).binary) {
        return toolError(
          `Cannot read ${shown}: it is a binary file (${formatBytes(stat.size)}). ` +
            "Use Bash with a suitable tool (file, xxd, strings, …) to inspect it.",
        );
      }

      const raw = await fs.readFile(abs);
      const lines = splitLines(raw.startsWith("\uFEFF") ? raw.slice(1) : raw).map((l) =>
        l.endsWith("\r") ? l.slice(0, -1) : l,
      );
      if (lines.length === 0) return { content: `(${shown} is empty)`, touchedPaths: [abs] };
      const offset = input.offset ?? 1;
      if (offset > lines.length) {
        return toolError(`offset ${offset} is past the end of ${shown}, which has ${lines.length} lines.`);
      }
      const end = input.limit === undefined ? lines.length : Math.min(lines.length, offset - 1 + input.limit);
      const selected = lines
        .slice(offset - 1, end)
        .map((l, i) => numberLine(offset + i, truncateLine(l, READ_MAX_LINE_CHARS).text));
      const cut = truncateHead(selected.join("\n"));
      const last = offset - 1 + cut.keptLines;
      const hint =
        last < lines.length
          ? `\n\n[Showing lines ${offset}-${last} of ${lines.length}. Use offset=${last + 1} to continue.]`
          : "";
      return { content: cut.text + hint, touchedPaths: [abs] };
    },
  });
}
