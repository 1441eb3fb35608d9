/**
 * How deeply a GraphQL request nests, measured without recursion. graphql-js parses, validates and executes nested
 * lists, input objects and selection sets by recursion, one or more stack frames a level: a list literal ~2,000 deep
 * (well within GRAPHQL_BOUNDS.maxTokens counted as tokens) overflowed the stack while parsing, and a variable nested
 * 5,000 deep while its strings were checked. Both are measured here first, so the request is refused as a bound.
 */

const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const HASH = 0x23; // #
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The deepest nesting of `{` and `[` in a GraphQL document's text (selection sets, list and input object literals,
 * list types), outside strings, block strings and comments, read as graphql-js's lexer reads them (GraphQL spec §2.1.4
 * comments, §2.9.4 strings): 0 for none. A string left open ends at its line's end, where the lexer refuses it; what
 * follows is counted too, which can only refuse as too deep a document that would not parse anyway.
 */
export function documentNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > deepest) deepest = depth;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      // An unbalanced closer is the parser's error to report; it never lowers the count below the top.
      if (depth > 0) depth--;
    } else if (code === HASH) {
      while (i + 1 < length && !isLineTerminator(text.charCodeAt(i + 1))) i++;
    } else if (code === QUOTE) {
      i = text.startsWith('"""', i) ? blockStringEnd(text, i + 3) : stringEnd(text, i + 1);
    }
  }
  return deepest;
}

const isLineTerminator = (code: number) => code === LINE_FEED || code === CARRIAGE_RETURN;

/** The index of a string's closing quote; a line terminator or the end (the lexer's "Unterminated string") ends it too. */
function stringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE || isLineTerminator(code)) return i;
    if (code === BACKSLASH) i++;
  }
  return text.length;
}

/** The index of the last quote closing a block string (`\"""` is an escaped quote, not its end); the end if none. */
function blockStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH && text.startsWith('"""', i + 1)) i += 3;
    else if (code === QUOTE && text.startsWith('"""', i)) return i + 2;
  }
  return text.length;
}

/**
 * How deeply a JSON value (the variables of a request) nests lists and objects, the value itself counting 1 if it is
 * one: {} is 1, {"a": [1]} 2, a string 0. Walked with a stack of its own, every value once.
 */
export function valueNesting(value: unknown): number {
  let deepest = 0;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length) {
    const next = values.pop();
    const depth = depths.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth > deepest) deepest = depth;
    for (const item of Array.isArray(next) ? next : Object.values(next)) {
      if (typeof item !== 'object' || item === null) continue;
      values.push(item);
      depths.push(depth + 1);
    }
  }
  return deepest;
}
