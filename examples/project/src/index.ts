/** A note in the demo notebook. */
export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

/** A URL-safe slug for a title: lowercase ASCII words joined by single hyphens. */
export function slugify(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The notes that carry every tag in `tags` (all notes when `tags` is empty), in their original order. */
export function withTags(notes: readonly Note[], tags: readonly string[]): Note[] {
  return notes.filter((note) => tags.every((tag) => note.tags.includes(tag)));
}
