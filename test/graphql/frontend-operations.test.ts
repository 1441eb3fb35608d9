import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSchema, Kind, parse, validate, type DefinitionNode } from 'graphql';
import { generate } from '@graphql-codegen/cli';
import { codegenConfig } from '../../examples/frontend/codegen.js';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const FRONTEND = root('examples/frontend');
const schema = buildSchema(readFileSync(root('schema.graphql'), 'utf8'));
const operationFiles = readdirSync(join(FRONTEND, 'operations')).filter((f) => f.endsWith('.graphql'));
const definitions: DefinitionNode[] = operationFiles.flatMap((f) => parse(readFileSync(join(FRONTEND, 'operations', f), 'utf8')).definitions);
const operationNames = definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name!.value] : []));
const manifest = JSON.parse(readFileSync(join(FRONTEND, 'generated/persisted-documents.json'), 'utf8')) as Record<string, string>;

describe('the example frontend operations (examples/frontend/operations)', () => {
  it('cover what a couple’s web app asks for', () => {
    expect(operationNames.sort()).toEqual(
      [
        'BlogList',
        'BlogPost',
        'InspirationFeed',
        'KnowledgeSearch',
        'PricingEstimate',
        'RateLimitStatus',
        'RegionalCostRange',
        'SendVendorInquiry',
        'SendVenueInquiry',
        'VendorCategories',
        'VendorDetail',
        'VendorSearch',
        'VenueDetail',
        'VenueSearch',
      ].sort(),
    );
  });

  it('validate against schema.graphql, fragments included', () => {
    const errors = validate(schema, { kind: Kind.DOCUMENT, definitions });
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it('are each one manifest entry: a sha256 of the document text that validates on its own', () => {
    const named = Object.entries(manifest).map(([hash, text]) => {
      expect(hash).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
      const document = parse(text);
      expect(validate(schema, document).map((e) => e.message)).toEqual([]);
      const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      expect(operations).toHaveLength(1);
      return operations[0].name!.value;
    });
    expect(named.sort()).toEqual([...operationNames].sort());
  });
});

describe('graphql-codegen output (examples/frontend/generated)', () => {
  const scratch = root(`.tmp/codegen-${process.pid}`);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is what `npm run codegen` generates now (regenerate and commit after changing the schema or an operation)', async () => {
    rmSync(scratch, { recursive: true, force: true });
    const outputs = await generate(codegenConfig(join(scratch, 'generated/')), true);
    const generated = Object.fromEntries(outputs.map((o: { filename: string }) => [basename(o.filename), readFileSync(o.filename, 'utf8')]));
    const committedDir = join(FRONTEND, 'generated');
    const committed = Object.fromEntries(readdirSync(committedDir).map((f) => [f, readFileSync(join(committedDir, f), 'utf8')]));
    expect(Object.keys(generated).sort()).toEqual(Object.keys(committed).sort());
    for (const [file, text] of Object.entries(generated)) expect(text, `${file} is stale: run npm run codegen`).toBe(committed[file]);
  });

  it('compiles with tsc, enums as string unions, ids as strings, JSON mapped (examples/frontend/type-checks.ts)', () => {
    // The freshly generated files, with the example's compile-time assertions and compiler options beside them.
    copyFileSync(join(FRONTEND, 'type-checks.ts'), join(scratch, 'type-checks.ts'));
    // `include` is resolved against the config that states it: stated here, it names the scratch copies.
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ extends: join(FRONTEND, 'tsconfig.json'), include: ['generated/*.ts', 'type-checks.ts'] }),
    );
    const tsc = root('node_modules/typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '--noEmit', '-p', scratch], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(output).toBe('');
    const types = readFileSync(join(scratch, 'generated/graphql.ts'), 'utf8');
    expect(types).toMatch(/export type VendorSort =\s*(\/\*\*[^*]*\*\/\s*)?\| 'EXPERIENCE'/);
    expect(types).not.toMatch(/export enum /);
  });
});
