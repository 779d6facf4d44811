/**
 * Recorded replies checked against the sandbox's description of them (kind `schema`), as
 * Prism's proxy does: the payload schema each route declares (the OpenAPI document is generated
 * from the same declarations), compiled once per operation.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { ApiMethod } from '../http/endpoint.js';
import { API_ROUTES } from '../routes/index.js';
import { pointerToPath, sample, type Found } from './compare.js';
import { effectiveMethod, envelopeOf, resourceOf, type PlatformExchange } from './exchange.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction | null>();

function validatorFor(exchange: PlatformExchange): ValidateFunction | null {
  const { resource, id } = resourceOf(exchange);
  const method = effectiveMethod(exchange) as ApiMethod;
  const route = API_ROUTES.find((r) => r.path === `/${resource}/:id` || r.path === `/${resource}/${id}`);
  const name = `${route?.path} ${method}`;
  if (!compiled.has(name)) {
    const schema = route?.methods[method]?.doc.payload;
    compiled.set(name, schema ? ajv.compile(schema) : null);
  }
  return compiled.get(name)!;
}

function valueAt(payload: unknown, pointer: string): unknown {
  let node = payload;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** What the recorded payload of a successful reply breaks in the sandbox's description; each path once. */
export function schemaFindings(exchange: PlatformExchange): Found[] {
  if (exchange.reply.status !== 200) return [];
  const envelope = envelopeOf(exchange.reply.text);
  if (!envelope || Number(envelope.code) !== 200 || envelope.payload === null || envelope.payload === undefined) return [];
  const validate = validatorFor(exchange);
  if (!validate || validate(envelope.payload)) return [];
  const out: Found[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const params = error.params as Record<string, unknown>;
    const named = typeof params.additionalProperty === 'string' ? params.additionalProperty : typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
    const pointer = named === undefined ? error.instancePath : `${error.instancePath}/${named.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const at = pointerToPath(pointer);
    if (seen.has(at)) continue;
    seen.add(at);
    out.push({ kind: 'schema', at, recorded: sample(valueAt(envelope.payload, pointer)) ?? null, sandbox: `the description: ${error.message ?? 'does not match'}` });
  }
  return out;
}
