import { Hono } from "hono";
import type { SqlQuery } from "../store/driver.js";

/** Liveness: answers while the process serves requests. */
export const LIVENESS_PATH = "/healthz";
/** Readiness: answers 200 only while the database answers. */
export const READINESS_PATH = "/readyz";

/**
 * `GET /healthz` (200 `{"status":"ok"}` while the process runs) and `GET /readyz` (200 `{"status":"ready"}`
 * once `SELECT 1` answers, else 503 `{"status":"unavailable","reason"}`), with no API key: for load balancers
 * and orchestrators. They say nothing about any workspace.
 */
export function healthRoutes(db: SqlQuery): Hono {
  const app = new Hono();
  app.get(LIVENESS_PATH, (c) => c.json({ status: "ok" }));
  app.get(READINESS_PATH, async (c) => {
    try {
      await db.query("SELECT 1");
      return c.json({ status: "ready" });
    } catch {
      // No error text: the route needs no key, and a driver's message may name hosts and users.
      return c.json({ status: "unavailable", reason: "the database does not answer" }, 503);
    }
  });
  return app;
}
