/** Characters gathered before a chunk is handed to the writer: few writes, little text held at once. */
export const JSON_STREAM_CHUNK_CHARS = 64 * 1_024;

/**
 * Writes `JSON.stringify([...items].map(toJson), null, 2)` in chunks, byte for byte the same text, without
 * building it whole: one item is serialised at a time (`items` may be a generator) and at most about
 * {@link JSON_STREAM_CHUNK_CHARS} characters are held before `write` is called. `write` may return a promise
 * (resolved once the sink can take more); it is awaited before the next chunk, so a slow pipe holds back
 * serialisation instead of queueing the whole text.
 */
export async function writeJsonArray<T>(
  items: Iterable<T>,
  toJson: (item: T) => unknown,
  write: (chunk: string) => void | Promise<void>,
  chunkChars: number = JSON_STREAM_CHUNK_CHARS,
): Promise<void> {
  let chunk = "";
  let first = true;
  for (const item of items) {
    // What JSON.stringify does for an array element: undefined, a function or a symbol becomes null. An
    // element's own line breaks are all indentation (strings escape theirs), so indenting one level deeper
    // is prefixing every line.
    const text = JSON.stringify(toJson(item), null, 2) ?? "null";
    chunk += `${first ? "[" : ","}\n  ${text.replaceAll("\n", "\n  ")}`;
    first = false;
    if (chunk.length >= chunkChars) {
      await write(chunk);
      chunk = "";
    }
  }
  await write(first ? "[]" : `${chunk}\n]`);
}
