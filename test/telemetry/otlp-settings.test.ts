import { describe, expect, it } from "vitest";
import { otlpSettings, parseKeyValues } from "../../src/telemetry/otlp-settings.js";

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" };

describe("OTLP settings from the standard OTEL_* variables (issue #45 item 4)", () => {
  it("adds each signal's path to the common endpoint; a signal's own endpoint is used as written", () => {
    const settings = otlpSettings({
      ...ENDPOINT,
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://metrics:9000/ingest",
    });
    expect(settings).toMatchObject({
      traces: { url: "http://collector:4318/v1/traces", protocol: "http/protobuf" },
      metrics: { url: "http://metrics:9000/ingest", protocol: "http/protobuf" },
      resource: { "service.name": "skillwright" },
      metricIntervalMs: 60_000,
      logPrompts: false,
    });
  });

  it("takes each signal's protocol and headers over the common ones", () => {
    const settings = otlpSettings({
      ...ENDPOINT,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,x-team=a",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-team=b",
    });
    if (!("resource" in settings)) throw new Error(JSON.stringify(settings));
    expect(settings.traces?.protocol).toBe("http/json");
    expect(settings.metrics?.protocol).toBe("http/protobuf");
    expect(settings.traces?.headers).toEqual({ authorization: "Bearer abc", "x-team": "b" });
    expect(settings.metrics?.headers).toEqual({ authorization: "Bearer abc", "x-team": "a" });
  });

  it("leaves out a signal whose exporter is none, and is off when both are or the SDK is disabled", () => {
    const noTraces = otlpSettings({ ...ENDPOINT, OTEL_TRACES_EXPORTER: "none" });
    expect(noTraces).not.toHaveProperty("traces");
    expect(noTraces).toHaveProperty("metrics");
    const noMetrics = otlpSettings({ ...ENDPOINT, OTEL_METRICS_EXPORTER: "NONE" });
    expect(noMetrics).toHaveProperty("traces");
    expect(noMetrics).not.toHaveProperty("metrics");
    expect(
      otlpSettings({ ...ENDPOINT, OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" }),
    ).toEqual({
      off: true,
    });
    expect(otlpSettings({ ...ENDPOINT, OTEL_SDK_DISABLED: "TRUE" })).toEqual({ off: true });
    // Only "true" disables (the specification's boolean rule); no endpoint is needed to be off.
    expect(otlpSettings({ OTEL_SDK_DISABLED: "true" })).toEqual({ off: true });
    expect(otlpSettings({ ...ENDPOINT, OTEL_SDK_DISABLED: "1" })).toHaveProperty("traces");
  });

  it("needs an endpoint only for the signals exported", () => {
    expect(otlpSettings({})).toEqual({
      error: expect.stringContaining("SKILLWRIGHT_ENABLE_TELEMETRY=1 needs an OTLP endpoint"),
    });
    const metricsOnly = otlpSettings({
      OTEL_TRACES_EXPORTER: "none",
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://m/v1/metrics",
    });
    expect(metricsOnly).toMatchObject({ metrics: { url: "http://m/v1/metrics" } });
    expect(otlpSettings({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://m/v1/metrics" })).toEqual({
      error: expect.stringContaining("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
    });
  });

  it("names the variable holding an unsupported value", () => {
    expect(otlpSettings({ ...ENDPOINT, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "grpc" })).toEqual({
      error: "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=grpc is not supported: use http/protobuf or http/json",
    });
    expect(otlpSettings({ ...ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toEqual({
      error: "OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: use http/protobuf or http/json",
    });
    expect(otlpSettings({ ...ENDPOINT, OTEL_METRICS_EXPORTER: "otlp,prometheus" })).toEqual({
      error: "OTEL_METRICS_EXPORTER=prometheus is not supported: use otlp or none",
    });
    expect(otlpSettings({ ...ENDPOINT, OTEL_METRIC_EXPORT_INTERVAL: "soon" })).toEqual({
      error: "OTEL_METRIC_EXPORT_INTERVAL=soon is not a positive number of milliseconds",
    });
  });

  it("reads the metric export interval and keeps its timeout within it", () => {
    expect(
      otlpSettings({ ...ENDPOINT, OTEL_METRIC_EXPORT_INTERVAL: "5000", OTEL_METRIC_EXPORT_TIMEOUT: "9000" }),
    ).toMatchObject({ metricIntervalMs: 5000, metricTimeoutMs: 5000 });
    expect(otlpSettings({ ...ENDPOINT, OTEL_METRIC_EXPORT_TIMEOUT: "9000" })).toMatchObject({
      metricIntervalMs: 60_000,
      metricTimeoutMs: 9000,
    });
  });

  it("builds the resource from OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME naming the service over it", () => {
    const attributes = "deployment.environment=ci,service.name=from-attributes,team=a%2Cb";
    expect(otlpSettings({ ...ENDPOINT, OTEL_RESOURCE_ATTRIBUTES: attributes })).toMatchObject({
      resource: { "deployment.environment": "ci", "service.name": "from-attributes", team: "a,b" },
    });
    expect(
      otlpSettings({ ...ENDPOINT, OTEL_RESOURCE_ATTRIBUTES: attributes, OTEL_SERVICE_NAME: "named" }),
    ).toMatchObject({ resource: { "service.name": "named" } });
  });

  it("treats an empty variable as unset", () => {
    expect(
      otlpSettings({
        ...ENDPOINT,
        OTEL_EXPORTER_OTLP_PROTOCOL: "",
        OTEL_SERVICE_NAME: "",
        OTEL_TRACES_EXPORTER: " ",
      }),
    ).toMatchObject({ traces: { protocol: "http/protobuf" }, resource: { "service.name": "skillwright" } });
  });

  it("parses key=value lists, skipping entries without a key", () => {
    expect(parseKeyValues("a=1, =2,b,c=x=y,d=%ZZ")).toEqual({ a: "1", c: "x=y", d: "%ZZ" });
  });
});
