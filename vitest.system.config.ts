import { suiteConfig } from "./vitest.config.js";

/** `npm run test:system`: only the system tests that vitest.config.ts lists (`npm test` runs all the others). */
export default suiteConfig("system");
