import type { ReferenceInfo, SkillReference, SkillReferences } from "../skill/reference.js";

/**
 * References held in memory. A loader runs only when its reference is read, and every read calls it again:
 * caching per session is the `load_reference` tool's business. Undefined when there are none.
 */
export function memoryReferences(references: readonly SkillReference[]): SkillReferences | undefined {
  if (references.length === 0) return undefined;
  const infos: ReferenceInfo[] = references.map((r) => ({ name: r.name, description: r.description }));
  return {
    list: async () => infos.map((info) => ({ ...info })),
    async read(name) {
      const found = references.find((r) => r.name === name);
      if (found === undefined) return undefined;
      if (typeof found.content === "string") return found.content;
      // A loader written in JavaScript may return anything: only text reaches the model.
      const loaded: unknown = await found.content();
      if (typeof loaded !== "string") throw new Error(`the loader returned ${typeof loaded}, not text`);
      return loaded;
    },
  };
}
