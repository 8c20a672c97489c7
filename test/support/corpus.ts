import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

/**
 * The corpus: real skills and plugins written by other people (anthropics/skills as `anthropics-skills/`,
 * anthropics/claude-plugins-official as `claude-plugins-official/`), read in place and never copied into the
 * project. A clone does not have it: the tests that read it skip, and the fixtures under test/ cover the same
 * behaviour. Set `SKILLWRIGHT_CORPUS` to its folder to run them; without it, `shared/corpus` beside the checkout
 * (or beside the main checkout, when this is a git worktree) is used when it exists.
 */

/** The checkout this file is in (test/support/ is two levels down). */
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The environment variable that names the corpus folder. */
export const CORPUS_ENV = "SKILLWRIGHT_CORPUS";

/** The main checkout of a git worktree (its `.git` is a file naming a dir under the main `.git`), else `root`. */
function mainCheckout(root: string): string {
  const dotGit = join(root, ".git");
  if (!existsSync(dotGit) || statSync(dotGit).isDirectory()) return root;
  const gitDir = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
  if (gitDir === undefined) return root;
  const absolute = isAbsolute(gitDir) ? gitDir : resolve(root, gitDir);
  const commonFile = join(absolute, "commondir");
  const common = existsSync(commonFile)
    ? resolve(absolute, readFileSync(commonFile, "utf8").trim())
    : absolute;
  return dirname(common);
}

/**
 * Where the corpus is: `$SKILLWRIGHT_CORPUS` when set (it must then exist: a run asked for it), else
 * `shared/corpus` beside the checkout or beside the main checkout of this worktree; undefined when absent.
 */
export function findCorpus(
  env: NodeJS.ProcessEnv = process.env,
  root: string = REPO_ROOT,
): string | undefined {
  const named = env[CORPUS_ENV];
  if (named !== undefined && named !== "") {
    const dir = resolve(named);
    if (!existsSync(dir)) throw new Error(`${CORPUS_ENV}=${named}: no such folder`);
    return dir;
  }
  const candidates = [
    join(root, "..", "shared", "corpus"),
    join(mainCheckout(root), "..", "shared", "corpus"),
  ];
  return candidates.find((dir) => existsSync(dir));
}

/** The corpus folder, or undefined when this checkout has none. */
export const CORPUS_DIR = findCorpus();

/**
 * A path inside the corpus (e.g. `corpusPath("anthropics-skills", "brand-guidelines")`). Read it only inside an
 * {@link itWithCorpus} or {@link describeWithCorpus} test: without the corpus it names a folder that does not exist.
 */
export function corpusPath(...segments: string[]): string {
  return join(CORPUS_DIR ?? join(REPO_ROOT, "no-corpus"), ...segments);
}

/** The one line a run prints when the corpus tests are skipped. */
export const CORPUS_SKIPPED_NOTICE = `Corpus tests skipped: no corpus of real skills found (set ${CORPUS_ENV} to its folder, holding anthropics-skills/ and claude-plugins-official/, to run them).`;

/** `it`, skipped when there is no corpus. */
export const itWithCorpus: ReturnType<typeof it.skipIf> = it.skipIf(CORPUS_DIR === undefined);

/** `describe`, skipped when there is no corpus (its hooks do not run; its body must not read the corpus). */
export const describeWithCorpus: ReturnType<typeof describe.skipIf> = describe.skipIf(
  CORPUS_DIR === undefined,
);
