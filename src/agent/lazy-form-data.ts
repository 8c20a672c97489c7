// What the SDK sees as `FormData` in the print bundle (scripts/bundle.mjs, `liteWeb`). The SDK tests every
// request body with `body instanceof FormData`, and reading the global loads Node's internal undici (~20 ms of
// CPU) for a JSON body that is never form data.

/**
 * Stands for the global `FormData`: `instanceof` holds for a platform FormData (the global is read only for an
 * object tagged "FormData", which only exists once undici is loaded), and `new` builds a platform FormData.
 */
export class LazyFormData {
  static [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    return Reflect.get(value, Symbol.toStringTag) === "FormData" && value instanceof globalThis.FormData;
  }

  constructor() {
    // biome-ignore lint/correctness/noConstructorReturn: stands for the platform class, whose instances it makes
    return new globalThis.FormData();
  }
}
