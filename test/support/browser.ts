import { existsSync } from "node:fs";
import { execa } from "execa";
import { type Browser, chromium } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

function findChromium(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * Debian's chromium: /usr/bin/chromium, installed with `apt-get install -y chromium` when it is missing
 * (CI runs as root on a fresh Debian machine). Prints what it does; throws a clear error when it cannot
 * install it. Never skips.
 */
export async function chromiumPath(): Promise<string> {
  const found = findChromium();
  if (found !== undefined) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      "the browser tests need Debian's chromium: run `sudo apt-get install -y chromium` (not root here)",
    );
  }
  const run = async (args: string[]) => {
    console.log(`browser tests: chromium is missing; running apt-get ${args.join(" ")}`);
    const result = await execa("apt-get", args, {
      reject: false,
      all: true,
      env: { DEBIAN_FRONTEND: "noninteractive" },
    });
    return result;
  };
  let result = await run(["install", "-y", "chromium"]);
  if (result.exitCode !== 0) {
    // A fresh machine may have no package lists yet.
    await run(["update"]);
    result = await run(["install", "-y", "chromium"]);
  }
  const installed = findChromium();
  if (installed === undefined) {
    throw new Error(
      `the browser tests need Debian's chromium and \`apt-get install -y chromium\` failed (exit ${result.exitCode}):\n${String(result.all).slice(-2000)}`,
    );
  }
  console.log(`browser tests: installed ${installed}`);
  return installed;
}

/** Launches Debian's chromium headless through playwright-core (installing it first when missing). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: await chromiumPath(),
    headless: true,
    // Root in a container has no user namespaces for chromium's sandbox.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}
