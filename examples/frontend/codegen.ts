import type { CodegenConfig } from '@graphql-codegen/cli';
import { fileURLToPath } from 'node:url';

/** A path beside this file, so `graphql-codegen` runs from any working directory and the test can point it elsewhere. */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The example frontend's typed operations and its persisted-operations manifest, from the printed schema
 * (schema.graphql) and operations/*.graphql. `npm run codegen` writes generated/; test/graphql/codegen.test.ts
 * regenerates into a scratch directory and fails when the committed files differ.
 */
export function codegenConfig(outDir: string = here('generated/')): CodegenConfig {
  return {
    schema: here('../../schema.graphql'),
    documents: here('operations/*.graphql'),
    ignoreNoDocuments: false,
    generates: {
      [outDir]: {
        preset: 'client',
        presetConfig: {
          // generated/persisted-documents.json: "sha256:<hex>" → document text, the allow-list the server loads.
          persistedDocuments: { hashAlgorithm: 'sha256' },
          fragmentMasking: { unmaskFunctionName: 'getFragmentData' },
        },
        config: {
          // GraphQL enums as unions of string literals: no runtime object, and the wire value is the TypeScript value.
          enumType: 'string-literal',
          useTypeImports: true,
          // An unmapped custom scalar fails generation instead of silently becoming `any`.
          strictScalars: true,
          scalars: {
            // PricingResult.parameters, VendorConnection.categoryStats: JSON objects whose shape the field describes.
            JSON: 'unknown',
            // Dates, URLs and UUIDs travel as strings (ISO 8601, absolute URLs, lower-case UUIDs).
            Date: 'string',
            DateTime: 'string',
            URL: 'string',
            UUID: 'string',
          },
        },
      },
    },
  };
}

export default codegenConfig();
