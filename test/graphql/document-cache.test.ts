import { describe, expect, it } from 'vitest';
import { buildSchema, GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ValidationRule } from 'graphql';
import { envelop, useSchema, type Plugin } from 'graphql-yoga';
import { useDocumentCache, type DocumentCacheBounds } from '../../src/graphql/document-cache.js';

// useDocumentCache (src/graphql/document-cache.ts) in an envelop of its own: graphql-js's parse and validate counted,
// so that what the cache spares, keeps and drops is seen. Through HTTP, a cached refusal is answered with the request's
// own id (test/http/request-refusals.test.ts, "the same refused document twice").
const schema = buildSchema('type Query { a: Int b: Int }');
const NoB: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === 'b') context.reportError(new GraphQLError('no b', { nodes: [node] }));
  },
});

function harness(bounds: DocumentCacheBounds, extraRule?: (context: { strict?: boolean }) => ValidationRule | null) {
  const calls = { parse: 0, validate: 0 };
  // What Yoga's engine plugin does: graphql-js's functions and specified rules, here counted.
  const engine: Plugin = {
    onParse({ setParseFn }) {
      setParseFn((source, options) => (calls.parse++, parse(source, options)));
    },
    onValidate({ setValidationFn, addValidationRule }) {
      setValidationFn((...args: Parameters<typeof validate>) => (calls.validate++, validate(...args)));
      specifiedRules.forEach(addValidationRule);
    },
  };
  const rules: Plugin<{ strict?: boolean }> = {
    onValidate({ addValidationRule, context }) {
      const rule = extraRule?.(context);
      if (rule) addValidationRule(rule);
    },
  };
  const getEnveloped = envelop({
    plugins: [engine, useSchema(schema), rules, useDocumentCache(bounds)],
  });
  const run = (text: string, context: { strict?: boolean } = {}) => {
    const e = getEnveloped(context);
    const document = e.parse(text) as DocumentNode;
    return { document, errors: e.validate(e.schema, document) as readonly GraphQLError[] };
  };
  return { calls, run };
}

/** Runs each text in turn, expecting graphql-js's parse to have run the given number of times after it. */
function expectParses(bounds: DocumentCacheBounds, steps: Array<[text: string, parsesSoFar: number]>) {
  const { calls, run } = harness(bounds);
  for (const [i, [text, parses]] of steps.entries()) {
    run(text);
    expect(calls.parse, `after step ${i + 1} (${JSON.stringify(text)})`).toBe(parses);
  }
}

const roomy: DocumentCacheBounds = { documents: 10, characters: 10_000 };

describe('the document cache', () => {
  it('parses and validates a text once, and hands the same document for it', () => {
    const { calls, run } = harness(roomy);
    const first = run('{ a }');
    const second = run('{ a }');
    expect(second.document).toBe(first.document);
    expect(second.errors).toEqual([]);
    expect(calls).toEqual({ parse: 1, validate: 1 });
    run('{ b }');
    expect(calls).toEqual({ parse: 2, validate: 2 });
  });

  it('validates again when the rules differ from those the document was validated with', () => {
    const { calls, run } = harness(roomy, (context) => (context.strict ? NoB : null));
    expect(run('{ b }').errors).toEqual([]);
    const strict = run('{ b }', { strict: true });
    expect(strict.errors.map((e) => e.message)).toEqual(['no b']);
    expect(run('{ b }', { strict: true }).errors.map((e) => e.message)).toEqual(['no b']);
    expect(calls).toEqual({ parse: 1, validate: 2 });
    // Back to the specified rules alone: found again, not taken from the strict run.
    expect(run('{ b }').errors).toEqual([]);
    expect(calls.validate).toBe(3);
  });

  it('keeps a refusal found by validation and gives it again', () => {
    const { calls, run } = harness(roomy);
    const refused = run('{ c }').errors;
    expect(refused[0].message).toContain('Cannot query field "c"');
    expect(run('{ c }').errors).toEqual(refused);
    expect(calls).toEqual({ parse: 1, validate: 1 });
  });

  it('keeps a parse error like a document: thrown again without parsing', () => {
    const { calls, run } = harness(roomy);
    const thrown = (() => {
      try {
        run('{ a');
      } catch (e) {
        return e;
      }
    })();
    expect(String(thrown)).toContain('Syntax Error');
    expect(() => run('{ a')).toThrow(thrown as Error);
    expect(calls.parse).toBe(1);
    // An empty text too (it is kept with a size of one: lru-cache takes no size of 0).
    expect(() => run('')).toThrow('Syntax Error');
    expect(() => run('')).toThrow('Syntax Error');
    expect(calls.parse).toBe(2);
  });

  it('drops the least recently used text past its count', () => {
    expectParses({ documents: 2, characters: 10_000 }, [
      ['{ a }', 1],
      ['{ b }', 2],
      ['{ a }', 2], // used: { b } is now the oldest
      ['{ a b }', 3],
      ['{ a }', 3],
      ['{ b }', 4],
    ]);
  });

  it('drops texts past its characters, and keeps no text longer than them all', () => {
    // Each short text is 5 characters: two fit in 12, a third drops the oldest.
    const long = `{ a ${' '.repeat(20)}}`;
    expectParses({ documents: 100, characters: 12 }, [
      ['{ a }', 1],
      ['{ b }', 2],
      ['{a b}', 3],
      ['{ b }', 3],
      ['{ a }', 4],
      [long, 5],
      [long, 6],
      // The long text took nothing from what was kept.
      ['{ a }', 6],
    ]);
  });
});
