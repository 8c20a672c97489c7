// Child process for the serve-startup floor: node bench/serve-startup-floor.js <dir>
// What no `serve` on PGlite can beat: open a fresh PGlite database in <dir>, apply the store's migrations (the
// same SQL, dist/serve/store/migrations.js, in one transaction), then listen on a free port and answer
// GET /readyz with 200 once `SELECT 1` answers, as serve does. Prints `listening on URL` when it listens.
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import { PGlite } from "@electric-sql/pglite";
import { MIGRATIONS } from "../dist/serve/store/migrations.js";

const [dir] = process.argv.slice(2);
if (dir === undefined) {
  process.stderr.write("usage: serve-startup-floor.js <dir>\n");
  process.exit(2);
}
await mkdir(dir, { recursive: true, mode: 0o700 });
const db = await PGlite.create({ dataDir: dir });
await db.transaction(async (tx) => {
  await tx.query(
    "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
  );
  for (const migration of MIGRATIONS) {
    for (const statement of migration.sql) await tx.query(statement);
    await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
      migration.version,
      migration.name,
    ]);
  }
});
const server = createServer((req, res) => {
  if (req.url !== "/readyz") {
    res.writeHead(404).end();
    return;
  }
  db.query("SELECT 1").then(
    () => res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ready"}'),
    () => res.writeHead(503).end(),
  );
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once("SIGTERM", () => {
  server.close();
  db.close().then(() => process.exit(0));
});
