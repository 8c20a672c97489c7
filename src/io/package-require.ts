import { createRequire } from "node:module";

/**
 * A `require` for this package's dependencies, from wherever this code was bundled: the ESM entry has
 * `import.meta.url`, the CommonJS print bundle (`dist/bin/p-run-*.cjs`) has only `__filename` (esbuild leaves
 * `import.meta` empty there). Call it when the dependency is needed, not at import time.
 */
export function packageRequire(): NodeJS.Require {
  // Undefined in the CommonJS bundle only, whatever its type says.
  const from: string | undefined = import.meta.url;
  return createRequire(from ?? __filename);
}
