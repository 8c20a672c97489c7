import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { attr, type JsonSpan, spansOf, startReceiver } from "../support/otlp-receiver.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

const MODULE_LOG = fileURLToPath(new URL("../support/module-log.cjs", import.meta.url));

beforeAll(() => {
  assertBuilt();
});

let tree: TmpTree | undefined;
let model: TestModel | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  await model?.close();
  await receiver?.close();
  await tree?.cleanup();
  model = undefined;
  receiver = undefined;
  tree = undefined;
});

async function runWith(env: Record<string, string>) {
  tree = await tmpTree({
    "home/.claude/skills/greet/SKILL.md": "---\ndescription: Greets people\n---\nSay hello warmly.\n",
    "repo/.git": { dir: true },
  });
  model = await startTestModel([
    toolTurn("Skill", { skill: "greet" }),
    textTurn("Hello!", { hasToolResultFor: "Skill" }),
  ]);
  const run = await execa(
    process.execPath,
    ["--require", MODULE_LOG, BIN, "--cwd", tree.path("repo"), "--home", tree.path("home"), "-p", "say hi"],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: tree.path("home"),
        ANTHROPIC_BASE_URL: model.server.url,
        ANTHROPIC_API_KEY: TEST_API_KEY,
        MODULE_LOG: tree.path("modules.log"),
        ...env,
      },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    },
  );
  const modules = readFileSync(tree.path("modules.log"), "utf8").split("\n").filter(Boolean);
  return { run, modules };
}

const otelModules = (modules: readonly string[]) => modules.filter((m) => m.includes("/@opentelemetry/"));
/**
 * The OpenTelemetry modules a run loads beyond `@opentelemetry/api`, which the model SDK (@anthropic-ai/sdk 1.11)
 * imports itself whenever a model client is made: the SDK, exporters and the rest are telemetry's own.
 */
const telemetryModules = (modules: readonly string[]) =>
  otelModules(modules).filter((m) => !m.includes("/@opentelemetry/api/"));

describe("telemetry over OpenTelemetry (issue #31 item 3)", () => {
  it("exports a skill invocation span, child of its turn's span, with the skill's name and trigger (http/json)", async () => {
    receiver = await startReceiver();
    const { run, modules } = await runWith({
      SKILLWRIGHT_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(telemetryModules(modules).length).toBeGreaterThan(0);
    const spans = spansOf(receiver.exports);
    const turn = spans.find((s) => s.name === "skillwright.turn");
    const skill = spans.find((s) => s.name === "skillwright.skill_invocation");
    expect(turn).toBeDefined();
    expect(skill?.parentSpanId).toBe(turn?.spanId);
    expect(attr(skill, "skill.name")).toBe("greet");
    expect(attr(skill, "skill.trigger")).toBe("model");
    expect(attr(skill, "skill.source")).toBe("user");
    expect(attr(skill, "skill.mode")).toBe("inline");
    const requests = spans.filter((s) => s.name === "skillwright.model_request");
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(request.parentSpanId).toBe(turn?.spanId);
    // No prompt text unless asked for: its length only.
    expect(attr(turn, "user.prompt")).toBeUndefined();
    expect(Number(attr(turn, "user.prompt_length"))).toBe("say hi".length);
    // The invocation counter reached the metrics endpoint.
    const metrics = receiver.exports
      .filter((e) => e.path === "/v1/metrics")
      .map((e) => e.body.toString("utf8"));
    expect(metrics.join("")).toContain("skillwright.skill.invocations");
    // The listing's entries by visibility, counted from the same decision the listing and doctor use.
    const listing = metrics.join("");
    expect(listing).toContain("skillwright.listing.entries");
    expect(listing).toMatch(/"key":"visibility","value":\{"stringValue":"full"\}/);
    // After the turn, what each skill costs the context (the numbers /context shows), as gauges.
    expect(listing).toContain("skillwright.skill.context_tokens");
    expect(listing).toMatch(/"key":"context\.part","value":\{"stringValue":"expansions"\}/);
    expect(listing).toMatch(/"key":"skill\.name","value":\{"stringValue":"greet"\}/);
  });

  it("exports over http/protobuf by default", async () => {
    receiver = await startReceiver();
    const { run } = await runWith({
      SKILLWRIGHT_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const traces = receiver.exports.filter((e) => e.path === "/v1/traces");
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]?.contentType).toBe("application/x-protobuf");
    const bytes = Buffer.concat(traces.map((t) => t.body));
    expect(bytes.includes("skillwright.skill_invocation")).toBe(true);
    expect(bytes.includes("greet")).toBe(true);
  });

  it("honours the per-signal protocol and headers and OTEL_RESOURCE_ATTRIBUTES (issue #45 item 4)", async () => {
    receiver = await startReceiver();
    const { run } = await runWith({
      SKILLWRIGHT_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "x-team=blue",
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: "x-signal=metrics",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,service.name=from-attributes",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const traces = receiver.exports.filter((e) => e.path === "/v1/traces");
    const metrics = receiver.exports.filter((e) => e.path === "/v1/metrics");
    expect(traces.length).toBeGreaterThan(0);
    expect(metrics.length).toBeGreaterThan(0);
    // Traces keep the common protocol (protobuf by default), metrics take their own.
    for (const t of traces) {
      expect(t.contentType).toBe("application/x-protobuf");
      expect(t.headers["x-team"]).toBe("blue");
      expect(t.headers["x-signal"]).toBeUndefined();
    }
    for (const m of metrics) {
      expect(m.contentType).toBe("application/json");
      expect(m.headers["x-team"]).toBe("blue");
      expect(m.headers["x-signal"]).toBe("metrics");
    }
    const body = JSON.parse(metrics[0]?.body.toString("utf8") ?? "{}") as {
      resourceMetrics: { resource: { attributes: JsonSpan["attributes"] } }[];
    };
    const resource = { name: "", spanId: "", attributes: body.resourceMetrics[0]?.resource.attributes ?? [] };
    expect(attr(resource, "service.name")).toBe("from-attributes");
    expect(attr(resource, "deployment.environment")).toBe("ci");
    expect(Buffer.concat(traces.map((t) => t.body)).includes("from-attributes")).toBe(true);
  }, 120_000);

  it("exports no signal whose exporter is none (OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER)", async () => {
    receiver = await startReceiver();
    const noTraces = await runWith({
      SKILLWRIGHT_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_EXPORTER: "none",
    });
    expect(noTraces.run.exitCode, noTraces.run.stderr).toBe(0);
    expect(receiver.exports.map((e) => e.path)).toContain("/v1/metrics");
    expect(receiver.exports.map((e) => e.path)).not.toContain("/v1/traces");
    await tree?.cleanup();
    await model?.close();
    receiver.exports.length = 0;
    const noMetrics = await runWith({
      SKILLWRIGHT_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_METRICS_EXPORTER: "none",
    });
    expect(noMetrics.run.exitCode, noMetrics.run.stderr).toBe(0);
    expect(receiver.exports.map((e) => e.path)).toContain("/v1/traces");
    expect(receiver.exports.map((e) => e.path)).not.toContain("/v1/metrics");
  }, 120_000);

  it("OTEL_SDK_DISABLED=true turns telemetry off quietly, loading none of its modules", async () => {
    receiver = await startReceiver();
    const { run, modules } = await runWith({
      SKILLWRIGHT_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SDK_DISABLED: "true",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("telemetry");
    expect(run.stdout.trim()).toBe("Hello!");
    expect(modules.length).toBeGreaterThan(10);
    expect(telemetryModules(modules)).toEqual([]);
    expect(receiver.exports).toEqual([]);
  }, 120_000);

  it("says which variable is wrong and runs without telemetry (an unsupported metrics protocol)", async () => {
    receiver = await startReceiver();
    const { run } = await runWith({
      SKILLWRIGHT_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "grpc",
    });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=grpc is not supported");
    expect(run.stdout.trim()).toBe("Hello!");
    expect(receiver.exports).toEqual([]);
  }, 120_000);

  it("loads no OpenTelemetry module of its own when telemetry is off (only the API the model SDK imports)", async () => {
    const { run, modules } = await runWith({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(modules.length).toBeGreaterThan(10);
    expect(telemetryModules(modules)).toEqual([]);
  });

  it("says why and runs without telemetry when no endpoint is set", async () => {
    const { run, modules } = await runWith({ SKILLWRIGHT_ENABLE_TELEMETRY: "1" });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain("SKILLWRIGHT_ENABLE_TELEMETRY=1 needs an OTLP endpoint");
    expect(run.stdout.trim()).toBe("Hello!");
    expect(modules.length).toBeGreaterThan(10);
  });
});
