import { basename, join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import { parseFrontmatterLazily, splitFrontmatter } from "../skill/frontmatter-core.js";
import type { PromptTemplate } from "./template.js";

/** The templates folder inside a config dir (`~/.skillwright/prompts`, `<project>/.skillwright/prompts`). */
export const PROMPTS_DIR = join(".skillwright", "prompts");

/** The template folders of a session, project first: `<projectDir>/.skillwright/prompts`, `~/.skillwright/prompts`. */
export function promptTemplateDirs(dirs: { home: string; projectDir: string }): [string, string] {
  return [join(dirs.projectDir, PROMPTS_DIR), join(dirs.home, PROMPTS_DIR)];
}

/** Names a template may have (its file name without `.md`). */
export const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The loaded templates (project first, then user, by name within each) and what was wrong. */
export interface LoadedTemplates {
  templates: PromptTemplate[];
  diagnostics: Diagnostic[];
}

async function readDir(
  fs: FsOps,
  dir: string,
  source: PromptTemplate["source"],
  diagnostics: Diagnostic[],
): Promise<PromptTemplate[]> {
  const entries = await fs.readdir(dir).catch((error: unknown) => {
    if (errorCode(error) !== "ENOENT" && errorCode(error) !== "ENOTDIR") {
      diagnostics.push(diagnostic("warning", "dir-unreadable", `cannot read: ${errorMessage(error)}`, dir));
    }
    return [];
  });
  const names = entries
    .filter((e) => (e.kind === "file" || e.kind === "symlink") && e.name.endsWith(".md"))
    .map((e) => e.name)
    .sort();
  const out: PromptTemplate[] = [];
  for (const file of names) {
    const filePath = join(dir, file);
    const name = basename(file, ".md");
    if (!TEMPLATE_NAME.test(name)) {
      diagnostics.push(
        diagnostic(
          "warning",
          "name-invalid",
          `"${name}" is not a template name (letters, digits, . _ -)`,
          filePath,
        ),
      );
      continue;
    }
    let text: string;
    try {
      text = await fs.readFile(filePath);
    } catch (error) {
      diagnostics.push(
        diagnostic("warning", "file-unreadable", `cannot read: ${errorMessage(error)}`, filePath),
      );
      continue;
    }
    const split = splitFrontmatter(text);
    const data =
      split.frontmatter === undefined ? {} : (await parseFrontmatterLazily(split.frontmatter)).data;
    const description = typeof data.description === "string" ? data.description.trim() : "";
    out.push({ name, description, body: split.body.trim(), source, filePath });
  }
  return out;
}

/**
 * Loads the prompt templates of `<projectDir>/.skillwright/prompts/*.md` and `~/.skillwright/prompts/*.md`: a
 * project template wins over a user one of the same name; a template named like one of `skillNames` is left out
 * with a `template-shadowed` warning (the skill wins). Missing folders are no templates. Never rejects.
 */
export async function loadPromptTemplates(
  fs: FsOps,
  dirs: { home: string; projectDir: string },
  skillNames: ReadonlySet<string>,
): Promise<LoadedTemplates> {
  const diagnostics: Diagnostic[] = [];
  const [projectDir, userDir] = promptTemplateDirs(dirs);
  const project = await readDir(fs, projectDir, "project", diagnostics);
  const user = await readDir(fs, userDir, "user", diagnostics);
  const templates: PromptTemplate[] = [];
  for (const template of [...project, ...user]) {
    if (templates.some((t) => t.name === template.name)) continue;
    if (skillNames.has(template.name)) {
      diagnostics.push(
        diagnostic(
          "warning",
          "template-shadowed",
          `prompt template /${template.name} is shadowed by the skill "${template.name}": the skill wins`,
          template.filePath,
        ),
      );
      continue;
    }
    templates.push(template);
  }
  return { templates, diagnostics };
}
