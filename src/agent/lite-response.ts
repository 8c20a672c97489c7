// The `Response` http-fetch.ts hands the SDK. Node's own `Response` is a lazy global that loads its whole
// internal undici (~20 ms of CPU) on first use; the SDK reads a response's status, headers and streamed body,
// which need nothing of it. Only `formData()`, which no Messages API response needs, builds a platform Response.
import type { LiteHeaders } from "./lite-headers.js";

/** What a {@link LiteResponse} is made of. */
export interface LiteResponseInit {
  status: number;
  statusText: string;
  headers: LiteHeaders;
  /** The URL the response came from. */
  url: string;
}

/**
 * A fetch `Response` over a web stream (or no body): status, headers, the body as a stream or read whole
 * (`text`, `json`, `arrayBuffer`, `bytes`, `blob`), `clone()` (the body teed). Reading a body twice, or one
 * already locked, rejects with a TypeError, as `Response` does.
 */
export class LiteResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly url: string;
  readonly type = "basic";
  readonly redirected = false;
  #body: ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(body: ReadableStream<Uint8Array> | null, init: LiteResponseInit) {
    this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  clone(): LiteResponse {
    if (this.#used || this.#body?.locked === true)
      throw new TypeError("Response.clone: the body is already used.");
    const init = { status: this.status, statusText: this.statusText, headers: this.headers, url: this.url };
    if (this.#body === null) return new LiteResponse(null, init);
    const [mine, theirs] = this.#body.tee();
    this.#body = mine;
    return new LiteResponse(theirs, init);
  }

  async bytes(): Promise<Uint8Array> {
    if (this.#used || this.#body?.locked === true) throw new TypeError("Response: the body is already used.");
    this.#used = true;
    if (this.#body === null) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.#body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    return new Uint8Array(Buffer.concat(chunks));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    const buffer = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(buffer).set(bytes);
    return buffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    const bytes = await this.bytes();
    return new Blob([bytes], { type: this.headers.get("content-type") ?? "" });
  }

  async formData(): Promise<FormData> {
    const bytes = await this.bytes();
    return new globalThis.Response(bytes, { headers: [...this.headers] }).formData();
  }
}
