import { Hono } from "hono";
import type { ReadWebAsset, ServeEnv } from "./env.js";

/**
 * The page's Content-Security-Policy: everything from this origin only, no inline script or style, no
 * framing. The page's own script and stylesheet, and the libraries its script imports, are files under `/web/`.
 */
export const WEB_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const PAGE = { file: "index.html", type: "text/html; charset=utf-8" };

const ASSETS: Record<string, { file: string; type: string }> = {
  "/": PAGE,
  "/web/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/web/style.css": { file: "style.css", type: "text/css; charset=utf-8" },
  // The libraries the page imports (vendored by scripts/vendor-web.mjs): Markdown, and the sanitizer its HTML
  // goes through before it is put in the page.
  "/web/vendor/marked.js": { file: "vendor/marked.js", type: "text/javascript; charset=utf-8" },
  "/web/vendor/purify.js": { file: "vendor/purify.js", type: "text/javascript; charset=utf-8" },
};

/**
 * The page's sections: each has its own address (`/skills`, `/skills/<id>`, `/sessions/<id>`, …), which
 * the page's router (src/serve/web/app.js, `ROUTES`) draws. Serve answers every path under them with the page
 * itself, so a reload or a shared link opens the same view. A new section is named here and in `ROUTES`.
 */
export const PAGE_SECTIONS = ["skills", "agents", "sessions", "memory", "files"] as const;

/**
 * The web page at `/` and at each of its views' addresses (`PAGE_SECTIONS`), and its script and stylesheet
 * under `/web/`: static text from the files the package ships (src/serve/web/), each served with a strict CSP. No API key is needed to load the page;
 * the page signs in to `/v1` with one.
 */
export function webRoutes(readAsset: ReadWebAsset): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  const pages = PAGE_SECTIONS.flatMap((section) => [`/${section}`, `/${section}/*`]);
  const routes = [...Object.entries(ASSETS), ...pages.map((path) => [path, PAGE] as const)];
  for (const [path, { file, type }] of routes) {
    app.get(path, async (c) =>
      c.body(await readAsset(file), 200, {
        "content-type": type,
        "content-security-policy": WEB_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-cache",
      }),
    );
  }
  // Browsers ask for an icon on their own: an empty answer, not a 404 in the page's console.
  app.get("/favicon.ico", (c) => c.body(null, 204));
  return app;
}
