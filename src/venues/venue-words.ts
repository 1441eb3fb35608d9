/**
 * The words of venue search (`q`), by the rule the database keeps each venue's document with (migration
 * venue_discovery, `venue_search_words`): lower case, accents folded by the table below, split on anything but a-z and
 * 0-9. A word of `q` matches the same word, or, when it has TYPO_MIN_LENGTH letters or more, a word of the catalogue
 * one edit away (a letter added, dropped, changed, or two neighbours swapped): "tuscanny" finds Tuscany.
 */

/** Accented letters and the letter each folds to; the migration's `translate` has the same two strings. */
const ACCENTED = 'àáâãäåāÀÁÂÃÄÅĀçćčÇĆČèéêëēėęÈÉÊËĒĖĘìíîïīÌÍÎÏĪñńÑŃòóôõöōøÒÓÔÕÖŌØùúûüūÙÚÛÜŪýÿÝŸšŠžŽ';
const FOLDED = 'aaaaaaaaaaaaaacccccceeeeeeeeeeeeeeiiiiiiiiiinnnnoooooooooooooouuuuuuuuuuyyyysszz';
const FOLD = new Map([...ACCENTED].map((letter, i) => [letter, FOLDED[i]]));

/** A character that starts or continues a word, as a regular-expression class (for a pattern stating it). */
export const WORD_CHARACTER = `[A-Za-z0-9${ACCENTED}]`;

/** A word shorter than this matches only itself: a slip in a short word more often makes another word (pool, cool). */
export const TYPO_MIN_LENGTH = 5;

/** The words of a text, in order, repeats kept. */
export function searchWords(text: string | null | undefined): string[] {
  if (!text) return [];
  // ASCII letters are lower-cased first, as PostgreSQL's lower() does in every locale; an accented capital folds
  // through the table either way.
  let folded = '';
  for (const char of text) {
    const lower = char >= 'A' && char <= 'Z' ? char.toLowerCase() : char;
    folded += FOLD.get(lower) ?? lower;
  }
  return folded.split(/[^a-z0-9]+/).filter(Boolean);
}

/** Whether `a` and `b` differ by exactly one edit: one letter added, dropped or changed, or two neighbours swapped. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  if (a.length === b.length) {
    if (a.slice(start + 1) === b.slice(start + 1)) return true;
    return a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(start + 1) === short.slice(start);
}

/** Catalogue words by length, so a word is compared only with those one letter longer, shorter or as long. */
export class SearchVocabulary {
  readonly #byLength = new Map<number, string[]>();

  constructor(terms: Iterable<string>) {
    for (const term of terms) {
      const list = this.#byLength.get(term.length);
      if (list) list.push(term);
      else this.#byLength.set(term.length, [term]);
    }
    for (const list of this.#byLength.values()) list.sort();
  }

  /** The catalogue's words one edit from `word` (none for a short word), in alphabetical order. */
  typosOf(word: string): string[] {
    if (word.length < TYPO_MIN_LENGTH) return [];
    const near: string[] = [];
    for (const length of [word.length - 1, word.length, word.length + 1])
      for (const term of this.#byLength.get(length) ?? []) if (oneEditApart(word, term)) near.push(term);
    return near.sort();
  }
}

/** One word of `q` and the catalogue words that stand for it with a slip. */
export interface QueryWord {
  word: string;
  typos: string[];
}

/** The distinct words of `q`, first occurrence first, each with its typos in `vocabulary`. */
export function queryWords(q: string, vocabulary: SearchVocabulary): QueryWord[] {
  return [...new Set(searchWords(q))].map((word) => ({ word, typos: vocabulary.typosOf(word) }));
}

/**
 * Where a word is found, best first, and the score of an exact match there: a typo scores as the next place down
 * (a slip in the name ranks with an exact word of the place). A venue's relevance is the sum over the words of `q`.
 */
export const WORD_PLACES = [
  { weight: 'A', score: 8 },
  { weight: 'B', score: 4 },
  { weight: 'C', score: 2 },
  { weight: 'D', score: 1 },
] as const;
export const TYPO_IN_DESCRIPTION_SCORE = 0.5;
