// A WHATWG `Headers` that needs nothing but JavaScript. Node's own `Headers` is a lazy global that loads its
// whole internal undici (fetch, web sockets, http2, tls, worker threads: ~20 ms of CPU on each start) the
// first time anything reads it; a headless run's HTTP client (http-fetch.ts) and, in the print bundle, the SDK
// (scripts/bundle.mjs, `liteWeb`) use this one instead, so a run that never calls the platform fetch never
// loads undici.

/** What `new Headers(init)` takes: a record, a sequence of pairs or another `Headers`. */
type HeadersInit = ConstructorParameters<typeof Headers>[0];

/** A header name: an HTTP token (RFC 9110 §5.6.2). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Leading or trailing HTTP whitespace, stripped from values as the Fetch standard does. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** Characters a header value may not hold once stripped. */
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

function checkedName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: "${text}" is an invalid header name.`);
  return text.toLowerCase();
}

function checkedValue(name: string, value: string): string {
  const text = String(value).replace(EDGE_WHITESPACE, "");
  if (FORBIDDEN_IN_VALUE.test(text)) {
    throw new TypeError(`Headers: "${text}" is an invalid header value for "${name}".`);
  }
  return text;
}

/** True when `value` is an iterable other than a string (a sequence of pairs, or another `Headers`). */
function isIterable(value: object): value is Iterable<unknown> {
  return typeof Reflect.get(value, Symbol.iterator) === "function";
}

/** One `[name, value]` pair of a sequence init; throws a TypeError for any other shape, as `Headers` does. */
function pairOf(item: unknown): [string, string] {
  if (typeof item !== "object" || item === null || !isIterable(item)) {
    throw new TypeError("Headers: each header must be a [name, value] pair.");
  }
  const pair = [...item];
  if (pair.length !== 2) throw new TypeError("Headers: each header must be a [name, value] pair.");
  return [String(pair[0]), String(pair[1])];
}

/** Every `[name, value]` of a `HeadersInit`. */
function* initPairs(init: HeadersInit | undefined): Generator<[string, string]> {
  if (init === undefined || init === null) return;
  if (typeof init !== "object") throw new TypeError("Headers: the init is not an object.");
  if (isIterable(init)) {
    for (const item of init) yield pairOf(item);
    return;
  }
  // A record's values are strings: an array becomes "a,b", as the platform's WebIDL conversion makes it.
  for (const [name, value] of Object.entries(init)) yield [name, String(value)];
}

/**
 * The Fetch standard's `Headers` (no guard: every header may be set): case-insensitive names, iterated
 * lower-cased in name order, values of one name joined with ", " except `set-cookie`'s, which stay apart.
 * Invalid names and values throw a TypeError. `instanceof LiteHeaders` also holds for Node's own `Headers`
 * (checked only for an object tagged "Headers", so the check never loads undici for anything else), because
 * code written against the global (the SDK) takes either.
 */
export class LiteHeaders implements Headers {
  /** Lower-cased name -> its values in the order they were appended. */
  readonly #values = new Map<string, string[]>();

  static [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    if (Object.prototype.isPrototypeOf.call(LiteHeaders.prototype, value)) return true;
    return Reflect.get(value, Symbol.toStringTag) === "Headers" && value instanceof globalThis.Headers;
  }

  constructor(init?: HeadersInit) {
    for (const [name, value] of initPairs(init)) this.append(name, value);
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const text = checkedValue(name, value);
    const values = this.#values.get(key);
    if (values === undefined) this.#values.set(key, [text]);
    else values.push(text);
  }

  set(name: string, value: string): void {
    this.#values.set(checkedName(name), [checkedValue(name, value)]);
  }

  delete(name: string): void {
    this.#values.delete(checkedName(name));
  }

  get(name: string): string | null {
    return this.#values.get(checkedName(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(checkedName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get("set-cookie") ?? [])];
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): Generator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name) ?? [];
      if (name === "set-cookie") for (const value of values) yield [name, value];
      else yield [name, values.join(", ")];
    }
  }

  *keys(): Generator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): Generator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): Generator<[string, string]> {
    return this.entries();
  }
}
