// Slugs are path-like ("california/napa/willow-creek-ranch") and may only hold [a-z0-9-/] (§2.2), so names
// with accents or apostrophes ("Cancún", "Sant'Anna") are folded to plain ASCII first.

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

/**
 * Hands out unique slugs in call order: the second "napa/willow-creek-ranch" becomes "...-2", then "-3".
 * Order matters, so callers must ask in the same order on every run.
 */
export class SlugRegistry {
  private readonly used = new Set<string>();

  claim(base: string): string {
    let slug = base;
    for (let n = 2; this.used.has(slug); n++) slug = `${base}-${n}`;
    this.used.add(slug);
    return slug;
  }
}
