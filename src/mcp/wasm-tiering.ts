import { setFlagsFromString } from "node:v8";

/**
 * How much WebAssembly a function runs before V8 recompiles it with its optimizing compiler: the largest value
 * V8 accepts, so it never does. MCP servers over HTTP and SSE go through Node's `fetch`, whose HTTP parser is
 * WebAssembly that would otherwise be recompiled after the first responses; that compile (~50 ms on a worker
 * thread) is still running when a short command exits, and exit waits for it. Parsing with the baseline code
 * costs nothing measurable. (The model client does not use `fetch`, see agent/http-fetch.ts.)
 */
export const WASM_TIERING_BUDGET = 2_147_483_647;

/** Sets {@link WASM_TIERING_BUDGET} for this process (a V8 flag: process-wide, idempotent). */
export function keepWasmAtBaseline(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}
