/**
 * A value built on first call and reused: for costly constants (zod schemas) a command may never need, so that
 * loading a module does not pay for them. `build` runs at most once per `lazy` call; if it throws, nothing is
 * kept and the next call runs it again.
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
