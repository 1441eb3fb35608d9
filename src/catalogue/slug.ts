// Slugs are path-like ("california/napa/willow-creek-ranch") and may only hold [a-z0-9-/] (§2.2), so names
// with accents or apostrophes ("Cancún", "Sant'Anna") are folded to plain ASCII first. The catalogue generator and
// the search filters use this one function, so a filter given as a name ("Cancún", "New York") finds the slug.

/** Lowercase kebab form of one name: "Château Belle-Rive" → "chateau-belle-rive". */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
