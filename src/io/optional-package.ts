/**
 * The optional dependencies (package.json `optionalDependencies`): what each enables. `npm install
 * --omit=optional` leaves them out, and the feature then says which package to install instead of failing.
 */
export const OPTIONAL_PACKAGES = {
  sharp: { feature: "scaling a large image for the Read tool", install: ["sharp"] },
  // The exporters and SDK (the API alone comes with the Anthropic SDK, which needs it).
  "@opentelemetry/sdk-trace-base": {
    feature: "telemetry (SKILLWRIGHT_ENABLE_TELEMETRY)",
    install: [
      "@opentelemetry/sdk-trace-base",
      "@opentelemetry/sdk-metrics",
      "@opentelemetry/resources",
      "@opentelemetry/exporter-trace-otlp-http",
      "@opentelemetry/exporter-trace-otlp-proto",
      "@opentelemetry/exporter-metrics-otlp-http",
      "@opentelemetry/exporter-metrics-otlp-proto",
    ],
  },
  "@anthropic-ai/sandbox-runtime": {
    feature: "the CLI's OS sandbox (settings sandbox.enabled)",
    install: ["@anthropic-ai/sandbox-runtime"],
  },
  // bash, python3, sqlite3 and jq in WebAssembly: about 60 MB with its sql.js, most of a lean install.
  "just-bash": {
    feature: "the simulated sandbox of served sessions (serve --sandbox simulated, the default)",
    install: ["just-bash"],
  },
} as const;
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/**
 * Whether `error` is Node's failure to find `pkg` (or, for a scope such as `@opentelemetry/`, a package of it):
 * the optional dependency is not installed. Pure.
 */
export function isMissingPackage(error: unknown, pkg: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  const scope = pkg.startsWith("@") ? pkg.slice(0, pkg.indexOf("/") + 1) : pkg;
  return error.message.includes(`'${scope}`) || error.message.includes(`"${scope}`);
}

/** The line that says a feature needs an optional package that is not installed. Pure. */
export function missingPackageLine(pkg: OptionalPackage): string {
  const { feature, install } = OPTIONAL_PACKAGES[pkg];
  return (
    `${feature} needs the optional package ${pkg}, which is not installed (npm install --omit=optional leaves ` +
    `it out): install ${install.length === 1 ? "it" : "them"} with npm install ${install.join(" ")}`
  );
}

/**
 * `load()` (an `import()` of an optional package, or of our module that imports it), with Node's "cannot find"
 * turned into an Error that says what to install; any other failure passes through.
 */
export async function importOptional<T>(pkg: OptionalPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, pkg)) throw new Error(missingPackageLine(pkg), { cause: error });
    throw error;
  }
}
