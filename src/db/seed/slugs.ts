// Unique slug allocation for the generator; the slug text itself comes from src/catalogue/slug.ts.

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
