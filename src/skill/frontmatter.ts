import YAML from "yaml";
import { type ParsedFrontmatter, parseFrontmatterWith } from "./frontmatter-core.js";

/**
 * Parses frontmatter text: the fast path for simple `key: value` lines, `yaml` for anything else, the
 * lenient line parser when `yaml` fails or yields a non-object. A key written twice keeps its last value and
 * is reported in `duplicateKeys`. Never throws. Synchronous, so this module loads `yaml` up front; callers on a
 * start-up path use `parseFrontmatterLazily` from `frontmatter-core.ts`.
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  return parseFrontmatterWith(text, YAML);
}
