// Rewrites the table of README.md's "Serving skills" section that says which SDK calls `skillwright serve`
// answers and which answer 501: built by routeTable (src/serve/http/sdk-routes.ts) from the routes the app
// registers. Runs on the tsc output (dist/), so build first.
//   npm run build && node scripts/serve-routes.mjs           rewrite the table
//   npm run build && node scripts/serve-routes.mjs --check   exit 1 when the table is out of date
// test/serve/sdk-routes.test.ts checks the same against the sources.
import { readFileSync, writeFileSync } from "node:fs";
import { createServeApp } from "../dist/serve/http/app.js";
import { routeTable } from "../dist/serve/http/sdk-routes.js";
import { openPgliteDriver } from "../dist/serve/store/pglite-driver.js";
import { createStore } from "../dist/serve/store/store.js";

const FILE = "README.md";
const TABLE = /(<!-- serve-routes: [^\n]*-->\n)[\s\S]*?(\n<!-- \/serve-routes -->)/;

const store = await createStore(await openPgliteDriver(undefined));
const table = routeTable(createServeApp({ store }).routes);
await store.close();

const current = readFileSync(FILE, "utf8");
if (!TABLE.test(current)) {
  console.error(`${FILE} has no <!-- serve-routes: … --> … <!-- /serve-routes --> block`);
  process.exit(1);
}
const next = current.replace(TABLE, (_m, open, close) => `${open}${table}${close}`);
if (process.argv.includes("--check")) {
  if (next !== current) {
    console.error(`${FILE}'s serve-routes table is out of date: run \`node scripts/serve-routes.mjs\` after a build.`);
    process.exit(1);
  }
} else if (next !== current) {
  writeFileSync(FILE, next);
  console.log(`wrote the serve-routes table of ${FILE}`);
}
