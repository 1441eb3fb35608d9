// fast-check arbitraries of the values a JSON Schema (the subset an OpenAPI document of this service uses) accepts.
// They aim at the whole schema-valid space, edges included (whitespace, astral characters, the bounds themselves);
// callers still check each value with a JSON Schema validator, which is the judge of "schema-valid".
import fc from 'fast-check';

// A schema of the document: JSON of many shapes.
export type Schema = Record<string, any>;

/** Characters that sit on the edges of text rules: spaces (ASCII and not), NUL's neighbours, astral ones, accents. */
const EDGY_UNIT = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\ufeff',
  '\u0001',
  'a',
  'Z',
  '7',
  '-',
  '/',
  '%',
  ',',
  'é',
  '😀',
  '𝔘',
);

/** Code points: what minLength and maxLength count. */
export const codePoints = (text: string) => [...text].length;

/** Whether `sample` of an arbitrary passes `accepts` often enough to be filtered rather than avoided (10 % or more). */
function passesOften(arbitrary: fc.Arbitrary<string>, accepts: (text: string) => boolean): boolean {
  const sample = fc.sample(arbitrary, { numRuns: 60, seed: 7 });
  return sample.filter(accepts).length >= sample.length / 10;
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength: number = schema.minLength ?? 0;
  // Unbounded text is tried up to a length that still says something about the server; bounded text up to its bound.
  const maxLength: number = schema.maxLength ?? 400;
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : null;
  const fits = (text: string) => {
    const length = codePoints(text);
    return length >= minLength && length <= maxLength && (!pattern || pattern.test(text));
  };
  const sized = { minLength: Math.min(minLength, maxLength), maxLength };
  const candidates: fc.Arbitrary<string>[] = [];
  if (pattern) candidates.push(fc.stringMatching(pattern, { maxLength: maxLength * 2 }));
  if (schema.format === 'uuid') candidates.push(fc.uuid());
  if (schema.format === 'email') candidates.push(fc.emailAddress());
  if (schema.format === 'date') candidates.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  if (schema.format === 'uri') candidates.push(fc.webUrl());
  // Free text: any Unicode text, and text made of edge characters; kept only where it often fits.
  for (const free of [fc.string({ unit: 'binary', ...sized }), fc.string({ unit: EDGY_UNIT, ...sized })]) {
    if (passesOften(free, fits)) candidates.push(free);
  }
  if (!candidates.length) throw new Error(`no generator for ${JSON.stringify(schema)}`);
  return fc.oneof(...candidates).filter(fits);
}

/** Plain decimal digits of a number, never an exponent: 1e-7 is 0.0000001 (how the document says numbers are sent). */
export function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exponentText] = match;
  const exponent = Number(exponentText);
  const digits = whole + fraction;
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  if (exponent >= fraction.length) return `${sign}${digits}${'0'.repeat(exponent - fraction.length)}`;
  return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
}

/** An object of `schema`: its required properties always, the others sometimes, nothing else. */
function objectOf(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const shape = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property)]));
  return fc.record(shape, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Values `schema` accepts. */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map(arbitraryOf));
  switch (schema.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      // Without bounds: any integer JSON can carry exactly, so a bound the schema lacks shows.
      return fc.integer({ min: schema.minimum ?? Number.MIN_SAFE_INTEGER, max: schema.maximum ?? Number.MAX_SAFE_INTEGER });
    case 'number':
      return fc.double({ min: schema.minimum ?? -Number.MAX_VALUE, max: schema.maximum ?? Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringOf(schema);
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: schema.maxItems ?? 8 });
    case 'object':
      return objectOf(schema);
    default:
      throw new Error(`no generator for ${JSON.stringify(schema)}`);
  }
}
