import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { expect } from 'vitest';

// ajv-formats is CommonJS with a default export: reach the plugin whichever way the loader wraps it.
export const addFormats = ((formatsModule as any).default?.default ?? (formatsModule as any).default) as (ajv: Ajv2020) => void;

type Document = OpenAPIV3_1.Document;
type Json = unknown;

/** Compiled response validators per document, keyed by `METHOD template status`. */
const compiled = new WeakMap<Document, Map<string, ValidateFunction>>();

/** The path template a request path hits: an exact template, else literal templates before parameterised ones (as orderRoutes). */
export function findPathTemplate(doc: Document, path: string): string | undefined {
  const serverPath = new URL(doc.servers?.[0]?.url ?? 'http://x').pathname.replace(/\/$/, '');
  let local = path.startsWith('http') ? new URL(path).pathname : path.replace(/[?#].*$/, '');
  if (serverPath && local.startsWith(`${serverPath}/`)) local = local.slice(serverPath.length);
  const templates = Object.keys(doc.paths ?? {});
  if (templates.includes(local)) return local;
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  return [...templates]
    .sort((a, b) => params(a) - params(b))
    .find((t) => new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^?#]+')}$`).test(local));
}

/** Component refs rewritten to $defs, so one response schema compiles on its own. */
function toStandalone(value: Json, strict: boolean): Json {
  if (Array.isArray(value)) return value.map((v) => toStandalone(v, strict));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : toStandalone(v, strict);
  }
  // Contract tests are stricter than the published document (which lets fields be added): an undocumented key fails.
  const types = ([] as Json[]).concat(out.type ?? []);
  if (strict && types.includes('object') && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** The compiled (strict, JSON Schema 2020-12) validator of one documented response; throws when it is not documented. */
export function responseValidator(doc: Document, method: string, template: string, status: number): ValidateFunction {
  const cache = compiled.get(doc) ?? new Map<string, ValidateFunction>();
  compiled.set(doc, cache);
  const key = `${method} ${template} ${status}`;
  const existing = cache.get(key);
  if (existing) return existing;
  const operation = (doc.paths?.[template] as Record<string, OpenAPIV3_1.OperationObject> | undefined)?.[method.toLowerCase()];
  if (!operation) throw new Error(`OpenAPI: no ${method} ${template}`);
  const response = operation.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined;
  if (!response)
    throw new Error(`OpenAPI: ${method} ${template} documents no ${status} (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`OpenAPI: ${method} ${template} ${status} has no application/json schema`);
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv); // uri, date-time, uuid, date, email: the formats the document names are checked too
  const validate = ajv.compile({
    $defs: toStandalone(doc.components?.schemas ?? {}, true) as Record<string, object>,
    ...(toStandalone(schema, true) as object),
  });
  cache.set(key, validate);
  return validate;
}

/**
 * Asserts a response body matches the document's schema for `method path status`. `path` is a template
 * (`/venues/{slug}`) or a request path (`/api/v1/venues/a%2Fb?x=1`). Objects are checked strictly: a key the document
 * does not list fails. The failure names the request id and each mismatch.
 */
export function expectMatchesOpenApi(doc: Document, method: string, path: string, status: number, body: unknown): void {
  const template = findPathTemplate(doc, path);
  expect(template, `OpenAPI: no path template matches ${path}`).toBeDefined();
  const validate = responseValidator(doc, method.toUpperCase(), template!, status);
  if (validate(body)) return;
  const record = (body ?? {}) as { request_id?: string; error?: { request_id?: string } };
  const requestId = record.request_id ?? record.error?.request_id ?? '(none)';
  const problems = (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
  );
  expect(problems, `${method} ${path} ${status} request ${requestId}: ${JSON.stringify(body).slice(0, 500)}`).toEqual([]);
}
