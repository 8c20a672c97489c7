import { Hono } from "hono";
import type { PriceTable } from "../price-table.js";
import type { ServeEnv } from "./env.js";
import { OWN_ROUTES_PREFIX } from "./sdk-routes.js";

/** Where the operator's price table is read (skillwright's own route: no SDK call names it). */
export const PRICES_PATH = `${OWN_ROUTES_PREFIX}prices`;

/**
 * `GET /v1/skillwright/prices`: `{ prices }`, the table `serve --prices FILE` was given (US dollars per million
 * tokens by model id), or `{ prices: null }` when none was: the web page then shows tokens and no cost.
 */
export function pricesRoutes(prices: PriceTable | undefined): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.get("/", (c) => c.json({ prices: prices ?? null }));
  return app;
}
