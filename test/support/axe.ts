import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import axe from "axe-core";
import type { Page } from "playwright-core";

/** Where the browser tests keep what a person looks at afterwards (gitignored): `test-artifacts/<name>/`. */
export async function artifactsDir(name: string): Promise<string> {
  const dir = fileURLToPath(new URL(`../../test-artifacts/${name}/`, import.meta.url));
  await mkdir(dir, { recursive: true });
  return dir;
}

/** One axe-core rule a page breaks: its id, impact and help text, and the elements (CSS selectors). */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The check run in the page (a string: these files are typed without the DOM). */
const RUN_AXE = `(async () => {
  const result = await window.axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.map((n) => n.target.map(String).join(" ")),
  }));
})()`;

/**
 * Runs axe-core (WCAG 2.0/2.1/2.2 A and AA rules and best practices) on the page as it is and answers the
 * violations of the given impacts. The engine is put in the page through the DevTools protocol, which the
 * page's Content-Security-Policy does not govern, so the page is checked with its own CSP in force.
 */
export async function axeViolations(
  page: Page,
  impacts: readonly string[] = ["serious", "critical"],
): Promise<AxeViolation[]> {
  const loaded = await page.evaluate<boolean>("window.axe !== undefined");
  if (!loaded) await page.evaluate(axe.source);
  const violations = await page.evaluate<AxeViolation[]>(RUN_AXE);
  return violations.filter((v) => v.impact !== null && impacts.includes(v.impact));
}

/** Saves a full-page screenshot as `<dir>/<name>.png` and answers its path. */
export async function screenshot(page: Page, dir: string, name: string): Promise<string> {
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
