import { readFileSync } from 'node:fs';
import * as graphqlEslint from '@graphql-eslint/eslint-plugin';
import { ESLint, type Linter } from 'eslint';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.js';

// The public schema's hygiene (issue 14; the bar is GitHub's and Shopify's public schemas), checked on the committed
// schema.graphql with @graphql-eslint's schema rules. strict-id-in-types is not used: value objects (prices, ranges,
// multipliers), connections and edges have no identity of their own; entities do (the Node interface).

const plugin = ((graphqlEslint as { default?: unknown }).default ?? graphqlEslint) as ESLint.Plugin & { parser: Linter.Parser };
const schemaText = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');

const RULES: Linter.RulesRecord = {
  '@graphql-eslint/require-description': [
    'error',
    {
      types: true,
      rootField: true,
      FieldDefinition: true,
      InputValueDefinition: true,
      EnumValueDefinition: true,
      DirectiveDefinition: true,
    },
  ],
  '@graphql-eslint/naming-convention': [
    'error',
    {
      types: 'PascalCase',
      FieldDefinition: 'camelCase',
      InputValueDefinition: 'camelCase',
      Argument: 'camelCase',
      EnumValueDefinition: 'UPPER_CASE',
    },
  ],
  '@graphql-eslint/no-unreachable-types': 'error',
  '@graphql-eslint/require-deprecation-reason': 'error',
  '@graphql-eslint/no-hashtag-description': 'error',
  '@graphql-eslint/no-typename-prefix': 'error',
  // Connections, edges and page info as Relay clients (urql graphcache, Relay) expect them.
  '@graphql-eslint/relay-connection-types': 'error',
  '@graphql-eslint/relay-edge-types': ['error', { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false }],
  '@graphql-eslint/relay-page-info': 'error',
  '@graphql-eslint/no-scalar-result-type-on-mutation': 'error',
};

/** Reviewed exceptions: a finding whose rule and message match is accepted for the reason given. */
const WAIVERS: { rule: string; message: string; reason: string }[] = [
  {
    rule: '@graphql-eslint/no-typename-prefix',
    message: 'Field "vendorPolicies" starts with the name of the parent type "Vendor"',
    reason: 'The spec names it vendor_policies (§2.9); GraphQL fields are the camelCase of their REST field.',
  },
  {
    rule: '@graphql-eslint/no-typename-prefix',
    message: 'Field "venueType" starts with the name of the parent type "Venue"',
    reason: 'The spec names it venue_type (§2.2), and venueType is also the search argument it matches.',
  },
];

async function lint(): Promise<Linter.LintMessage[]> {
  const eslint = new ESLint({
    // Only these rules, on the schema text: the repository's eslint.config.js is for TypeScript.
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.graphql'],
        languageOptions: { parser: plugin.parser, parserOptions: { graphQLConfig: { schema: schemaText } } },
        plugins: { '@graphql-eslint': plugin },
        rules: RULES,
      },
    ],
  });
  const [result] = await eslint.lintText(schemaText, { filePath: 'schema.graphql' });
  return result.messages;
}

const waiverOf = (m: Linter.LintMessage) => WAIVERS.find((w) => w.rule === m.ruleId && m.message === w.message);

describe('schema.graphql lint', () => {
  it('has no finding outside the reviewed waivers, and no waiver left unused', async () => {
    const messages = await lint();
    // A fatal message (no ruleId) is a parse or configuration failure: it must not pass as "no findings".
    expect(messages.filter((m) => !m.ruleId).map((m) => m.message)).toEqual([]);
    const unwaived = messages.filter((m) => !waiverOf(m)).map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
    expect(unwaived).toEqual([]);
    const unused = WAIVERS.filter((w) => !messages.some((m) => waiverOf(m) === w)).map((w) => w.message);
    expect(unused).toEqual([]);
  });

  it('runs the rules (a description removed is a finding)', async () => {
    const undescribed = schemaText.replace('"""Absolute page URL."""\n', '');
    expect(undescribed).not.toBe(schemaText);
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.graphql'],
          languageOptions: { parser: plugin.parser, parserOptions: { graphQLConfig: { schema: undescribed } } },
          plugins: { '@graphql-eslint': plugin },
          rules: { '@graphql-eslint/require-description': RULES['@graphql-eslint/require-description'] },
        },
      ],
    });
    const [result] = await eslint.lintText(undescribed, { filePath: 'schema.graphql' });
    expect(result.messages.map((m) => m.message)).toEqual(['Description is required for field "url" in type "Venue"']);
  });

  it('names the §9 removal date in every deprecation reason', () => {
    const reasons: string[] = [];
    for (const type of Object.values(getSchema().getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (field.deprecationReason) reasons.push(`${type.name}.${field.name}: ${field.deprecationReason}`);
          for (const arg of field.args) if (arg.deprecationReason) reasons.push(`${type.name}.${field.name}(${arg.name}): ${arg.deprecationReason}`);
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields()))
          if (field.deprecationReason) reasons.push(`${type.name}.${field.name}: ${field.deprecationReason}`);
      } else if (isEnumType(type)) {
        for (const value of type.getValues()) if (value.deprecationReason) reasons.push(`${type.name}.${value.name}: ${value.deprecationReason}`);
      }
    }
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.filter((r) => !/Removal announced for after \d{4}-\d{2}-\d{2}\.$/.test(r))).toEqual([]);
  });
});
