import { CORPUS_DIR, CORPUS_SKIPPED_NOTICE } from "./corpus.js";

/** Vitest's global setup: prints, once per run, that the corpus tests are skipped when there is no corpus. */
export default function setup(): void {
  if (CORPUS_DIR === undefined) process.stdout.write(`\n${CORPUS_SKIPPED_NOTICE}\n`);
}
