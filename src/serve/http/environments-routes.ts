import type { BetaEnvironment } from "@anthropic-ai/sdk/resources/beta/environments/environments";
import { Hono } from "hono";
import * as z from "zod";
import { invalid } from "../errors.js";
import { pageRequest } from "../store/page.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { boolQuery, jsonBody, patchMetadata } from "./parse.js";

const policyList = z.array(z.string()).nullish();
const networking = z.union([
  z.strictObject({ type: z.literal("unrestricted") }),
  z.strictObject({
    type: z.literal("limited"),
    allow_mcp_servers: z.boolean().nullish(),
    allow_package_managers: z.boolean().nullish(),
    allowed_hosts: z.array(z.string()).nullish(),
  }),
]);
const config = z.union([
  z.strictObject({ type: z.literal("self_hosted") }),
  z.strictObject({
    type: z.literal("cloud"),
    networking: networking.nullish(),
    packages: z
      .strictObject({
        type: z.literal("packages").optional(),
        apt: policyList,
        cargo: policyList,
        gem: policyList,
        go: policyList,
        npm: policyList,
        pip: policyList,
      })
      .nullish(),
  }),
]);
const name = z.string().trim().min(1).max(256);
const metadata = z.record(z.string().max(64), z.string().max(512));
const scope = z.enum(["organization", "account"]);

const createSchema = z.strictObject({
  name,
  config: config.nullish(),
  description: z.string().max(2048).nullish(),
  metadata: metadata.optional(),
  scope: scope.nullish(),
});
const updateSchema = z.strictObject({
  name: name.nullish(),
  config: config.nullish(),
  description: z.string().max(2048).nullish(),
  metadata: z.record(z.string(), z.string().nullable()).nullish(),
  scope: scope.nullish(),
});

/** The package managers an environment's `packages` may name, in the SDK's order. */
const PACKAGE_MANAGERS = ["apt", "cargo", "gem", "go", "npm", "pip"] as const;

/**
 * Why a config's `packages` cannot be honoured, or undefined when it names none: serve's sandbox tiers install
 * no package (the simulated tier has no package manager, and an operator's host is the operator's), so any
 * non-empty list is refused rather than stored and ignored. Pure.
 */
export function packagesRefusal(input: z.infer<typeof config> | null | undefined): string | undefined {
  if (input === null || input === undefined || input.type !== "cloud") return undefined;
  const named = PACKAGE_MANAGERS.filter((manager) => (input.packages?.[manager] ?? []).length > 0);
  if (named.length === 0) return undefined;
  return (
    `config.packages: ${named.map((m) => `${m} (${(input.packages?.[m] ?? []).join(", ")})`).join("; ")} ` +
    "cannot be installed: this server's sandbox honours no package list (its simulated tier runs python3's " +
    "standard library and the shell's own commands); remove packages, or ship what a skill needs in its files"
  );
}

/** {@link resolveConfig} of a config whose `packages` {@link packagesRefusal} allows; else the 400. */
function acceptedConfig(input: z.infer<typeof config> | null | undefined): BetaEnvironment["config"] {
  const refusal = packagesRefusal(input);
  if (refusal !== undefined) throw invalid(refusal);
  return resolveConfig(input);
}

/** The stored form of a config: every field filled in, as the SDK's `BetaEnvironment.config` reads it. Pure. */
export function resolveConfig(input: z.infer<typeof config> | null | undefined): BetaEnvironment["config"] {
  if (input === null || input === undefined || input.type === "self_hosted") return { type: "self_hosted" };
  const net = input.networking;
  return {
    type: "cloud",
    networking:
      net === null || net === undefined || net.type === "unrestricted"
        ? { type: "unrestricted" }
        : {
            type: "limited",
            allow_mcp_servers: net.allow_mcp_servers ?? false,
            allow_package_managers: net.allow_package_managers ?? false,
            allowed_hosts: net.allowed_hosts ?? [],
          },
    packages: {
      type: "packages",
      apt: input.packages?.apt ?? [],
      cargo: input.packages?.cargo ?? [],
      gem: input.packages?.gem ?? [],
      go: input.packages?.go ?? [],
      npm: input.packages?.npm ?? [],
      pip: input.packages?.pip ?? [],
    },
  };
}

/** `/v1/environments`: the SDK's `client.beta.environments`. */
export function environmentsRoutes({ store }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.post("/", async (c) => {
    const body = await jsonBody(c, createSchema);
    return c.json(
      await store.environments.create(c.var.workspaceId, {
        name: body.name,
        description: body.description ?? null,
        config: acceptedConfig(body.config),
        metadata: body.metadata ?? {},
        ...(body.scope === null || body.scope === undefined ? {} : { scope: body.scope }),
      }),
    );
  });
  app.get("/", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(await store.environments.list(c.var.workspaceId, page, boolQuery(c, "include_archived")));
  });
  app.get("/:id", async (c) => c.json(await store.environments.get(c.var.workspaceId, c.req.param("id"))));
  app.post("/:id", async (c) => {
    const body = await jsonBody(c, updateSchema);
    const config =
      body.config === null || body.config === undefined ? undefined : acceptedConfig(body.config);
    return c.json(
      await store.environments.update(c.var.workspaceId, c.req.param("id"), (current) => ({
        ...current,
        ...(body.name === null || body.name === undefined ? {} : { name: body.name }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(config === undefined ? {} : { config }),
        ...(body.scope === null || body.scope === undefined ? {} : { scope: body.scope }),
        metadata: patchMetadata(current.metadata, body.metadata),
      })),
    );
  });
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    await store.environments.delete(c.var.workspaceId, id);
    return c.json({ id, type: "environment_deleted" });
  });
  app.post("/:id/archive", async (c) =>
    c.json(await store.environments.archive(c.var.workspaceId, c.req.param("id"))),
  );
  return app;
}
