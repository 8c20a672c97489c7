import { isUtf8 } from "node:buffer";

/** Extensions (lower case, no dot) of files that are text: they must be valid UTF-8. */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    "md markdown mdx txt text rst adoc org tex csv tsv json jsonl json5 yaml yml toml ini cfg conf env " +
    "properties xml html htm css scss sass less svg sql graphql gql py pyi rb js mjs cjs ts mts cts jsx tsx " +
    "vue svelte go rs java kt kts scala swift c h cc cpp hpp cs m php pl pm lua r dart ex exs erl hs clj " +
    "sh bash zsh fish ps1 psm1 bat cmd awk sed mk makefile cmake dockerfile gitignore gitattributes " +
    "editorconfig lock patch diff log"
  ).split(" "),
);

/** Extensions of files that are binary whatever their bytes: never checked as text. */
const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    "png jpg jpeg gif webp bmp ico icns tif tiff avif heic psd pdf zip gz tgz bz2 xz zst 7z rar tar jar " +
    "woff woff2 ttf otf eot mp3 mp4 m4a wav ogg flac webm mov avi mkv wasm so dylib dll exe bin dat db " +
    "sqlite pyc class o a npy npz pkl pt onnx parquet xlsx xls docx doc pptx ppt odt"
  ).split(" "),
);

/** How many leading bytes decide whether a file of no known extension is text (as git and grep do). */
export const TEXT_SNIFF_BYTES = 8000;

/**
 * Whether a skill file is text, which must be valid UTF-8: by its extension when known (`.md`, `.py`, `.json`…
 * are text; `.png`, `.pdf`, `.woff2`… are binary), a name without extension (`README`, `LICENSE`) is text, and
 * any other file is text when its first {@link TEXT_SNIFF_BYTES} bytes hold no NUL byte. Pure.
 */
export function isTextFile(path: string, content: Uint8Array): boolean {
  const name = (path.split("/").at(-1) ?? path).toLowerCase();
  const dot = name.lastIndexOf(".");
  const extension = dot <= 0 ? undefined : name.slice(dot + 1);
  if (extension === undefined) return true;
  if (TEXT_EXTENSIONS.has(extension)) return true;
  if (BINARY_EXTENSIONS.has(extension)) return false;
  return !content.subarray(0, TEXT_SNIFF_BYTES).includes(0);
}

/** The offset of the first byte that is not part of a valid UTF-8 sequence, or undefined when all are. Pure. */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let length: number;
    let min: number;
    if (b < 0x80) {
      i += 1;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [length, min] = [3, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [length, min] = [4, 0x10000];
    else return i;
    let code = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += length;
  }
  return undefined;
}

/**
 * Why `path` cannot be stored as it is (a text file that is not valid UTF-8, with the offset of the first bad
 * byte), or undefined when it can. Binary files are never refused here. Pure.
 */
export function textFileProblem(path: string, content: Uint8Array): string | undefined {
  if (!isTextFile(path, content) || isUtf8(content)) return undefined;
  const at = firstInvalidUtf8(content) ?? 0;
  return `file ${JSON.stringify(path)} is text but not valid UTF-8 (first bad byte at offset ${at}): save it as UTF-8, or give a binary file its usual extension`;
}
