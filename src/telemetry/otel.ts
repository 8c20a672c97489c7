import { context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Telemetry } from "./telemetry.js";
import {
  type Attributes,
  COUNTER_NAMES,
  contextGauges,
  createTurnTracker,
  type SpanHandle,
  type TelemetryPort,
} from "./turn-tracker.js";

/** The OTLP transports this engine exports over (grpc is not one). */
export type OtlpProtocol = "http/json" | "http/protobuf";

/** Where and how to export, read from the standard `OTEL_*` variables. */
export interface OtlpSettings {
  tracesUrl: string;
  metricsUrl: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  serviceName: string;
  /** `OTEL_LOG_USER_PROMPTS=1`: the prompt's text goes into the turn span. */
  logPrompts: boolean;
}

/** `k1=v1,k2=v2` (values percent-decoded), as `OTEL_EXPORTER_OTLP_HEADERS` holds them. Pure. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
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

/**
 * The export settings from the environment, or why there are none: an endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * to which `/v1/traces` and `/v1/metrics` are added, or the per-signal `…_TRACES_ENDPOINT` and
 * `…_METRICS_ENDPOINT` used as they are), a protocol (`OTEL_EXPORTER_OTLP_PROTOCOL` or per signal;
 * default `http/protobuf`), headers, `OTEL_SERVICE_NAME`. Pure.
 */
export function otlpSettings(env: Record<string, string | undefined>): OtlpSettings | { error: string } {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  const tracesUrl =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base === undefined ? undefined : `${base}/v1/traces`);
  const metricsUrl =
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT ?? (base === undefined ? undefined : `${base}/v1/metrics`);
  if (tracesUrl === undefined || metricsUrl === undefined) {
    return {
      error:
        "SKILLWRIGHT_ENABLE_TELEMETRY=1 needs an OTLP endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT (or both OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)",
    };
  }
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  if (protocol !== "http/json" && protocol !== "http/protobuf") {
    return {
      error: `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: use http/protobuf or http/json`,
    };
  }
  return {
    tracesUrl,
    metricsUrl,
    protocol,
    headers: parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
    serviceName: env.OTEL_SERVICE_NAME ?? "skillwright",
    logPrompts: env.OTEL_LOG_USER_PROMPTS === "1",
  };
}

/** An OpenTelemetry span behind the tracker's handle; children are started in its context. */
function handleOf(span: Span): SpanHandle & { span: Span } {
  return {
    span,
    set: (attributes) => {
      span.setAttributes(attributes);
    },
    end: (endTime, error) => {
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
      span.end(endTime);
    },
  };
}

/**
 * Telemetry over OpenTelemetry's SDK: spans batched to the OTLP/HTTP traces endpoint, counters read every minute
 * (and at shutdown) to the metrics endpoint, in JSON or protobuf. Loaded only when telemetry is on, so a run
 * without it never loads an OpenTelemetry module.
 */
export function createOtelTelemetry(settings: OtlpSettings, version: string): Telemetry {
  const resource = resourceFromAttributes({
    "service.name": settings.serviceName,
    "service.version": version,
  });
  const json = settings.protocol === "http/json";
  const traceOptions = { url: settings.tracesUrl, headers: settings.headers };
  const metricOptions = { url: settings.metricsUrl, headers: settings.headers };
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(
        json ? new JsonTraceExporter(traceOptions) : new ProtoTraceExporter(traceOptions),
      ),
    ],
  });
  const reader = new PeriodicExportingMetricReader({
    exporter: json ? new JsonMetricExporter(metricOptions) : new ProtoMetricExporter(metricOptions),
    exportIntervalMillis: 60_000,
  });
  const meterProvider = new MeterProvider({ resource, readers: [reader] });
  const tracer = tracerProvider.getTracer("skillwright", version);
  const meter = meterProvider.getMeter("skillwright", version);
  const counters = new Map<string, ReturnType<typeof meter.createCounter>>();
  const gauges = new Map<string, ReturnType<typeof meter.createGauge>>();
  const spans = new WeakMap<SpanHandle, Span>();
  const port: TelemetryPort = {
    startSpan(name, attributes: Attributes, parent, startTime) {
      const parentSpan = parent === undefined ? undefined : spans.get(parent);
      const ctx = parentSpan === undefined ? context.active() : trace.setSpan(context.active(), parentSpan);
      const handle = handleOf(
        tracer.startSpan(name, { attributes, ...(startTime === undefined ? {} : { startTime }) }, ctx),
      );
      spans.set(handle, handle.span);
      return handle;
    },
    count(name, value, attributes) {
      let counter = counters.get(name);
      if (counter === undefined) {
        counter = meter.createCounter(name);
        counters.set(name, counter);
      }
      counter.add(value, attributes);
    },
    gauge(name, value, attributes) {
      let gauge = gauges.get(name);
      if (gauge === undefined) {
        gauge = meter.createGauge(name, { unit: "{token}" });
        gauges.set(name, gauge);
      }
      gauge.record(value, attributes);
    },
  };
  return {
    turn: (info) => createTurnTracker(port, info, { logPrompts: settings.logPrompts }),
    contextUsage(sessionId, usage) {
      for (const { value, attributes } of contextGauges(sessionId, usage)) {
        port.gauge(COUNTER_NAMES.contextTokens, value, attributes);
      }
    },
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
