import { context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { OtlpSettings } from "./otlp-settings.js";
import type { Telemetry } from "./telemetry.js";
import {
  type Attributes,
  COUNTER_NAMES,
  contextGauges,
  createTurnTracker,
  type GaugePoint,
  type SpanHandle,
  type TelemetryPort,
} from "./turn-tracker.js";

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
 * Telemetry over OpenTelemetry's SDK: spans batched to the OTLP/HTTP traces endpoint, counters read every
 * `metricIntervalMs` (and at shutdown) to the metrics endpoint, each signal in JSON or protobuf and left out when
 * its exporter is `none`. Loaded only when telemetry is on, so a run without it never loads an OpenTelemetry
 * module.
 */
export function createOtelTelemetry(settings: OtlpSettings, version: string): Telemetry {
  const resource = resourceFromAttributes({ ...settings.resource, "service.version": version });
  const { traces, metrics } = settings;
  const spanProcessors: SpanProcessor[] = [];
  if (traces !== undefined) {
    const options = { url: traces.url, headers: traces.headers };
    spanProcessors.push(
      new BatchSpanProcessor(
        traces.protocol === "http/json" ? new JsonTraceExporter(options) : new ProtoTraceExporter(options),
      ),
    );
  }
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors });
  const readers: PeriodicExportingMetricReader[] = [];
  if (metrics !== undefined) {
    const options = { url: metrics.url, headers: metrics.headers };
    readers.push(
      new PeriodicExportingMetricReader({
        exporter:
          metrics.protocol === "http/json"
            ? new JsonMetricExporter(options)
            : new ProtoMetricExporter(options),
        exportIntervalMillis: settings.metricIntervalMs,
        ...(settings.metricTimeoutMs === undefined ? {} : { exportTimeoutMillis: settings.metricTimeoutMs }),
      }),
    );
  }
  const meterProvider = new MeterProvider({ resource, readers });
  const tracer = tracerProvider.getTracer("skillwright", version);
  const meter = meterProvider.getMeter("skillwright", version);
  const counters = new Map<string, ReturnType<typeof meter.createCounter>>();
  const gauges = new Map<string, ReturnType<typeof meter.createGauge>>();
  const spans = new WeakMap<SpanHandle, Span>();
  // Each session's context gauges set after its last turn: a part it no longer has is set back to 0.
  const lastGauges = new Map<string, GaugePoint[]>();
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
      const points = contextGauges(sessionId, usage, lastGauges.get(sessionId));
      for (const { value, attributes } of points) port.gauge(COUNTER_NAMES.contextTokens, value, attributes);
      lastGauges.set(
        sessionId,
        points.filter((p) => p.value !== 0),
      );
    },
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
