// Prompt-cache reuse from recorded Messages API request bodies (pure; see bench/README.md, "cache").
//
// A request is cut into units in API order: each tool, each system block, then each content block of each
// message (a string content is one block; a message's first unit carries its role). A unit's size is the length
// of its JSON text without `cache_control`. A cache entry is what an earlier request with the same model wrote
// at one of its breakpoints (a unit with `cache_control`): its units up to and including that one. A request is
// served the longest such entry that is a unit-for-unit (so byte-identical) prefix of it.

/**
 * @typedef {object} Units
 * @property {string} model
 * @property {string[]} texts one JSON text per unit, in API order
 * @property {string[]} labels where each unit sits: `tools[2]`, `system[0]`, `messages[3][1] (user text)`
 * @property {number[]} breakpoints indices of the units carrying `cache_control`
 * @property {number} chars total size
 */

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A block's JSON text without `cache_control`, and whether it had one.
 * @param {unknown} block
 * @param {Record<string, unknown>} [extra] fields put first (a message's role)
 * @returns {[string, boolean]}
 */
function unitOf(block, extra = {}) {
  if (!isRecord(block)) return [JSON.stringify({ ...extra, block }), false];
  const { cache_control: mark, ...rest } = block;
  return [JSON.stringify({ ...extra, ...rest }), mark !== undefined];
}

/**
 * Cuts a recorded request body into cache units.
 * @param {unknown} body
 * @returns {Units}
 */
export function requestUnits(body) {
  if (!isRecord(body)) throw new Error("request body is not an object");
  /** @type {Units} */
  const units = { model: String(body.model), texts: [], labels: [], breakpoints: [], chars: 0 };
  /** @param {string} label @param {[string, boolean]} unit */
  const push = (label, [text, marked]) => {
    if (marked) units.breakpoints.push(units.texts.length);
    units.texts.push(text);
    units.labels.push(label);
    units.chars += text.length;
  };
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, tool] of tools.entries()) push(`tools[${i}]`, unitOf(tool));
  const system = typeof body.system === "string" ? [{ type: "text", text: body.system }] : body.system;
  if (Array.isArray(system)) for (const [i, block] of system.entries()) push(`system[${i}]`, unitOf(block));
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((message, m) => {
    if (!isRecord(message)) return;
    const role = String(message.role);
    const blocks =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    if (!Array.isArray(blocks)) return;
    blocks.forEach((block, b) => {
      const kind = isRecord(block) ? String(block.type) : "?";
      push(`messages[${m}][${b}] (${role} ${kind})`, unitOf(block, b === 0 ? { role } : {}));
    });
  });
  return units;
}

/**
 * @typedef {object} Served
 * @property {number} chars served from cache
 * @property {number} from index of the earlier request whose entry served it (-1: none)
 * @property {string} why for a request that is not fully served: what ends the served prefix
 */

/**
 * How much of `units` an earlier request's cache entries serve (see the file comment), and why not more.
 * @param {Units} units
 * @param {readonly Units[]} earlier
 * @returns {Served}
 */
export function servedFromCache(units, earlier) {
  let best = { chars: 0, from: -1, common: 0, index: -1 };
  let closest = { common: -1, index: -1 };
  earlier.forEach((e, index) => {
    let common = 0;
    while (common < e.texts.length && common < units.texts.length && e.texts[common] === units.texts[common])
      common++;
    if (common > closest.common || (common === closest.common && e.model === units.model)) {
      closest = { common, index };
    }
    if (e.model !== units.model) return;
    const breakpoint = e.breakpoints.filter((b) => b < common).at(-1);
    if (breakpoint === undefined) return;
    let chars = 0;
    for (let i = 0; i <= breakpoint; i++) chars += e.texts[i]?.length ?? 0;
    if (chars > best.chars) best = { chars, from: index, common, index: breakpoint };
  });
  return { chars: best.chars, from: best.from, why: explain(units, earlier, best, closest) };
}

/**
 * @param {Units} units
 * @param {readonly Units[]} earlier
 * @param {{ chars: number, from: number, common: number, index: number }} best
 * @param {{ common: number, index: number }} closest
 * @returns {string}
 */
function explain(units, earlier, best, closest) {
  if (earlier.length === 0) return "first request: nothing cached yet";
  const near = earlier[closest.index];
  if (near !== undefined && near.model !== units.model && closest.common > best.index + 1) {
    return `model ${units.model}, but #${closest.index + 1} (${near.model}) shares ${closest.common} units: caches are per model`;
  }
  const from = earlier[best.from];
  if (from === undefined) return `no earlier entry is a prefix (${units.labels[0] ?? "?"} on differ)`;
  const label = (/** @type {number} */ i) => units.labels[i] ?? "?";
  if (best.common - 1 > best.index) {
    return `${label(best.index + 1)}..${label(best.common - 1)} identical to #${best.from + 1} but after its last breakpoint there`;
  }
  if (best.common < from.texts.length) return `${label(best.common)} differs from #${best.from + 1}'s`;
  return `new from ${label(best.common)}`;
}

/**
 * The 1-based indexes of the requests (after the first) that are prefix breaks: their messages do not begin
 * with the previous request's messages, block for block and byte for byte, `cache_control` ignored (the tools
 * and system units are left out: they never change). Pure.
 * @param {readonly unknown[]} bodies recorded request bodies of one thread, in order
 * @returns {number[]}
 */
export function prefixBreaks(bodies) {
  /** @param {unknown} body */
  const messageUnits = (body) => {
    const units = requestUnits(body);
    return units.texts.filter((_, i) => (units.labels[i] ?? "").startsWith("messages"));
  };
  /** @type {number[]} */
  const breaks = [];
  let before = bodies.length === 0 ? [] : messageUnits(bodies[0]);
  for (let i = 1; i < bodies.length; i++) {
    const now = messageUnits(bodies[i]);
    if (before.length > now.length || before.some((u, k) => now[k] !== u)) breaks.push(i + 1);
    before = now;
  }
  return breaks;
}

/**
 * Total chars of the messages of `bodies` (each block's JSON without `cache_control`): what a thread sends
 * beyond its fixed tools and system prompt. Pure.
 * @param {readonly unknown[]} bodies
 * @returns {number}
 */
export function messageChars(bodies) {
  let chars = 0;
  for (const body of bodies) {
    const units = requestUnits(body);
    units.texts.forEach((text, i) => {
      if ((units.labels[i] ?? "").startsWith("messages")) chars += text.length;
    });
  }
  return chars;
}
