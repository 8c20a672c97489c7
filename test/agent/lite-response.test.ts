import { describe, expect, it } from "vitest";
import { LazyFormData } from "../../src/agent/lazy-form-data.js";
import { LiteHeaders } from "../../src/agent/lite-headers.js";
import { LiteResponse } from "../../src/agent/lite-response.js";

const encoder = new TextEncoder();

/** A stream of `parts`, one chunk each. */
function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

function lite(status: number, ...parts: string[]): LiteResponse {
  return new LiteResponse(parts.length === 0 ? null : streamOf(...parts), {
    status,
    statusText: "Status",
    headers: new LiteHeaders({ "content-type": "application/json" }),
    url: "http://127.0.0.1/v1/messages",
  });
}

describe("LiteResponse", () => {
  it("status, ok and headers as given", () => {
    const response = lite(201, "{}");
    expect([response.status, response.statusText, response.ok, response.url, response.redirected]).toEqual([
      201,
      "Status",
      true,
      "http://127.0.0.1/v1/messages",
      false,
    ]);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect([199, 200, 299, 300, 404].map((status) => lite(status).ok)).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(Object.prototype.toString.call(response)).toBe("[object Response]");
  });

  it("reads a body split across chunks (multi-byte characters cut in two) as the platform Response does", async () => {
    const text = '{"a":"héllo → wörld 😀"}';
    const bytes = encoder.encode(text);
    const chunked = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const [from, to] of [
            [0, 8],
            [8, 21],
            [21, bytes.length],
          ] as const) {
            controller.enqueue(bytes.slice(from, to));
          }
          controller.close();
        },
      });
    const init = { status: 200, statusText: "OK", headers: new LiteHeaders(), url: "" };
    expect(await new LiteResponse(chunked(), init).text()).toBe(await new Response(chunked()).text());
    expect(await new LiteResponse(chunked(), init).json()).toEqual({ a: "héllo → wörld 😀" });
    expect(new Uint8Array(await new LiteResponse(chunked(), init).arrayBuffer())).toEqual(bytes);
    expect(await new LiteResponse(chunked(), init).bytes()).toEqual(bytes);
    const blob = await lite(200, text).blob();
    expect([blob.type, await blob.text()]).toEqual(["application/json", text]);
  });

  it("a body reads once: bodyUsed, then a TypeError; a locked body cannot be read or cloned", async () => {
    const response = lite(200, "x");
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe("x");
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    const locked = lite(200, "y");
    locked.body?.getReader();
    await expect(locked.text()).rejects.toThrow(TypeError);
    expect(() => locked.clone()).toThrow(TypeError);
  });

  it("no body reads as empty; clone tees the body so both read it whole", async () => {
    expect(await lite(204).text()).toBe("");
    expect(lite(204).body).toBeNull();
    const response = lite(200, "one ", "two");
    const copy = response.clone();
    expect([await copy.text(), await response.text()]).toEqual(["one two", "one two"]);
  });

  it("formData() parses through the platform Response", async () => {
    const response = new LiteResponse(streamOf("a=1&b=two"), {
      status: 200,
      statusText: "OK",
      headers: new LiteHeaders({ "content-type": "application/x-www-form-urlencoded" }),
      url: "",
    });
    const form = await response.formData();
    expect([form.get("a"), form.get("b")]).toEqual(["1", "two"]);
  });
});

describe("LazyFormData", () => {
  it("instanceof holds for a platform FormData only; new builds one", () => {
    const made: unknown = new LazyFormData();
    expect(made).toBeInstanceOf(FormData);
    expect(new FormData()).toBeInstanceOf(LazyFormData);
    expect({ a: 1 }).not.toBeInstanceOf(LazyFormData);
    expect({ [Symbol.toStringTag]: "FormData" }).not.toBeInstanceOf(LazyFormData);
    expect("x").not.toBeInstanceOf(LazyFormData);
  });
});
