/** The OTLP transports this engine exports over (grpc is not one). */
export type OtlpProtocol = "http/json" | "http/protobuf";

/** One signal's export: where, over which transport, with which headers. */
export interface OtlpSignal {
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
}

/**
 * What to export and how, read from the standard `OTEL_*` variables. A signal whose exporter is `none` is absent.
 * The exporters and the span processor read the rest of the standard variables themselves (timeouts,
 * compression, certificates, temporality, `OTEL_BSP_*`, the sampler): docs/behaviour.md §16.2 lists them.
 */
export interface OtlpSettings {
  traces?: OtlpSignal;
  metrics?: OtlpSignal;
  /** The resource: `OTEL_RESOURCE_ATTRIBUTES`, then `service.name` (`OTEL_SERVICE_NAME` over the attributes). */
  resource: Record<string, string>;
  /** `OTEL_METRIC_EXPORT_INTERVAL` (default 60 000 ms). */
  metricIntervalMs: number;
  /** `OTEL_METRIC_EXPORT_TIMEOUT`, at most the interval; undefined leaves the SDK's default (30 s, clamped). */
  metricTimeoutMs?: number;
  /** `OTEL_LOG_USER_PROMPTS=1`: the prompt's text goes into the turn span. */
  logPrompts: boolean;
}

/** Why there is no export: `off` quietly (`OTEL_SDK_DISABLED=true`, every exporter `none`), or a warning. */
export type NoExport = { off: true } | { error: string };

type Env = Record<string, string | undefined>;

/** A variable's value, an empty one counting as unset (the OpenTelemetry specification's rule). */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** `k1=v1,k2=v2` (values percent-decoded), as `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_RESOURCE_ATTRIBUTES` hold them. Pure. */
export function parseKeyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? "").split(",")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const raw = part.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A value that is not percent-encoded stays as written.
    }
    if (key !== "") out[key] = value;
  }
  return out;
}

/** The exporters this engine has for a signal: `otlp` (the default) or `none`. */
function exporterOn(env: Env, name: string): boolean | { error: string } {
  const names = (read(env, name) ?? "otlp")
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== "");
  const other = names.find((n) => n !== "otlp" && n !== "none");
  if (other !== undefined) return { error: `${name}=${other} is not supported: use otlp or none` };
  return names.includes("otlp");
}

/** A positive whole number of milliseconds, or a message naming the variable. */
function millis(env: Env, name: string): number | undefined | { error: string } {
  const text = read(env, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value > 0
    ? value
    : { error: `${name}=${text} is not a positive number of milliseconds` };
}

function signal(
  env: Env,
  name: "TRACES" | "METRICS",
  base: string | undefined,
): OtlpSignal | { error: string } {
  const specific = read(env, `OTEL_EXPORTER_OTLP_${name}_ENDPOINT`);
  const url = specific ?? (base === undefined ? undefined : `${base}/v1/${name.toLowerCase()}`);
  if (url === undefined) {
    return {
      error: `SKILLWRIGHT_ENABLE_TELEMETRY=1 needs an OTLP endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_${name}_ENDPOINT)`,
    };
  }
  const protocolVar = read(env, `OTEL_EXPORTER_OTLP_${name}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${name}_PROTOCOL`
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = read(env, protocolVar) ?? "http/protobuf";
  if (protocol !== "http/json" && protocol !== "http/protobuf") {
    return { error: `${protocolVar}=${protocol} is not supported: use http/protobuf or http/json` };
  }
  return {
    url,
    protocol,
    headers: {
      ...parseKeyValues(read(env, "OTEL_EXPORTER_OTLP_HEADERS")),
      ...parseKeyValues(read(env, `OTEL_EXPORTER_OTLP_${name}_HEADERS`)),
    },
  };
}

/**
 * The export settings from the environment, or why there are none. Per signal: an endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, to which `/v1/traces` and `/v1/metrics` are added, or
 * `OTEL_EXPORTER_OTLP_{TRACES,METRICS}_ENDPOINT` used as written), a protocol (`…_{TRACES,METRICS}_PROTOCOL`
 * over `OTEL_EXPORTER_OTLP_PROTOCOL`; default `http/protobuf`), headers (the signal's over the common ones) and
 * an exporter (`OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`: `otlp` or `none`). `OTEL_SDK_DISABLED=true`
 * turns everything off. Pure.
 */
export function otlpSettings(env: Env): OtlpSettings | NoExport {
  if (read(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return { off: true };
  const tracesOn = exporterOn(env, "OTEL_TRACES_EXPORTER");
  if (typeof tracesOn !== "boolean") return tracesOn;
  const metricsOn = exporterOn(env, "OTEL_METRICS_EXPORTER");
  if (typeof metricsOn !== "boolean") return metricsOn;
  if (!tracesOn && !metricsOn) return { off: true };
  const base = read(env, "OTEL_EXPORTER_OTLP_ENDPOINT")?.replace(/\/+$/, "");
  const traces = tracesOn ? signal(env, "TRACES", base) : undefined;
  if (traces !== undefined && "error" in traces) return traces;
  const metrics = metricsOn ? signal(env, "METRICS", base) : undefined;
  if (metrics !== undefined && "error" in metrics) return metrics;
  const interval = millis(env, "OTEL_METRIC_EXPORT_INTERVAL");
  if (typeof interval === "object") return interval;
  const timeout = millis(env, "OTEL_METRIC_EXPORT_TIMEOUT");
  if (typeof timeout === "object") return timeout;
  const metricIntervalMs = interval ?? 60_000;
  const attributes = parseKeyValues(read(env, "OTEL_RESOURCE_ATTRIBUTES"));
  return {
    ...(traces === undefined ? {} : { traces }),
    ...(metrics === undefined ? {} : { metrics }),
    resource: {
      ...attributes,
      "service.name": read(env, "OTEL_SERVICE_NAME") ?? attributes["service.name"] ?? "skillwright",
    },
    metricIntervalMs,
    ...(timeout === undefined ? {} : { metricTimeoutMs: Math.min(timeout, metricIntervalMs) }),
    logPrompts: env.OTEL_LOG_USER_PROMPTS === "1",
  };
}
