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
  });

  it('drops the least recently used text past its count', () => {
    const { calls, run } = harness({ documents: 2, characters: 10_000 });
    run('{ a }');
    run('{ b }');
    run('{ a }'); // used: { b } is now the oldest
    run('{ a b }');
    expect(calls.parse).toBe(3);
    run('{ a }');
    expect(calls.parse).toBe(3);
    run('{ b }');
    expect(calls.parse).toBe(4);
  });

  it('drops texts past its characters, and keeps no text longer than them all', () => {
    // Each text is 5 characters: two fit in 12, a third drops the oldest.
    const { calls, run } = harness({ documents: 100, characters: 12 });
    run('{ a }');
    run('{ b }');
    run('{a b}');
    expect(calls.parse).toBe(3);
    run('{ b }');
    expect(calls.parse).toBe(3);
    run('{ a }');
    expect(calls.parse).toBe(4);
    const long = `{ a ${' '.repeat(20)}}`;
    run(long);
    run(long);
    expect(calls.parse).toBe(6);
    // The long text took nothing from what was kept.
    run('{ a }');
    expect(calls.parse).toBe(6);
  });
});
