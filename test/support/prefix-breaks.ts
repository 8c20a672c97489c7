/**
 * Prefix breaks in recorded Messages API request bodies (issue 31): a request whose messages do not begin with
 * the previous request's messages, block for block and byte for byte, `cache_control` markers ignored.
 */

/** A block's JSON text without `cache_control` (a string content counts as one text block). */
function blockTexts(message: { role: string; content: unknown }): string[] {
  const blocks =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  if (!Array.isArray(blocks)) return [];
  return blocks.map((block, i) => {
    const { cache_control: _mark, ...rest } = block as Record<string, unknown>;
    return JSON.stringify(i === 0 ? { role: message.role, ...rest } : rest);
  });
}

/** The units of a body's messages, in order. */
function units(body: { messages: ReadonlyArray<{ role: string; content: unknown }> }): string[] {
  return body.messages.flatMap(blockTexts);
}

/** The 1-based indexes of the requests (after the first) whose messages do not begin with the previous one's. */
export function prefixBreaks(
  bodies: ReadonlyArray<{ messages: ReadonlyArray<{ role: string; content: unknown }> }>,
): number[] {
  const breaks: number[] = [];
  for (let i = 1; i < bodies.length; i++) {
    const before = units(bodies[i - 1] as (typeof bodies)[number]);
    const now = units(bodies[i] as (typeof bodies)[number]);
    if (before.length > now.length || before.some((u, k) => now[k] !== u)) breaks.push(i + 1);
  }
  return breaks;
}
