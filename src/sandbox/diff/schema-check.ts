/**
 * Recorded replies checked against the sandbox's description of them (kind `schema`), as
 * Prism's proxy does: the payload schema of the endpoint table's row the request reached (the
 * OpenAPI document is generated from the same table), compiled once per row.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { endpointAt, type EndpointRow } from '../../domain/endpoints.js';
import { pointerToPath, sample, type Found } from './compare.js';
import { effectiveMethod, envelopeOf, resourceOf, type PlatformExchange } from './exchange.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<EndpointRow, ValidateFunction>();

function validatorFor(exchange: PlatformExchange): ValidateFunction | null {
  const { resource, id } = resourceOf(exchange);
  const row = endpointAt(effectiveMethod(exchange), resource, id);
  if (!row) return null;
  if (!compiled.has(row)) compiled.set(row, ajv.compile(row.payload));
  return compiled.get(row)!;
}

function valueAt(payload: unknown, pointer: string): unknown {
  let node = payload;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** `inner` is `outer` or below it: `payload[].product.data.consumable_qty` is below `payload[].product.data`. */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
}

/**
 * What the recorded payload of a successful reply breaks in the sandbox's description; each path
 * once. One cause, one difference: a value described as one of several shapes (`anyOf`/`oneOf`,
 * such as a product's `data`) that fails because of a field inside it is reported at that field
 * (here, or by the comparison: `explained`), not again at the value with the message of a shape
 * it was never meant to have ("must be array").
 */
export function schemaFindings(exchange: PlatformExchange, explained: readonly string[] = []): Found[] {
  if (exchange.reply.status !== 200) return [];
  const envelope = envelopeOf(exchange.reply.text);
  if (!envelope || Number(envelope.code) !== 200 || envelope.payload === null || envelope.payload === undefined)
    return [];
  const validate = validatorFor(exchange);
  if (!validate || validate(envelope.payload)) return [];
  const found: Array<{ at: string; pointer: string; message: string; branch: boolean }> = [];
  for (const error of validate.errors ?? []) {
    const params = error.params as Record<string, unknown>;
    const named =
      typeof params.additionalProperty === 'string'
        ? params.additionalProperty
        : typeof params.missingProperty === 'string'
          ? params.missingProperty
          : undefined;
    const pointer =
      named === undefined
        ? error.instancePath
        : `${error.instancePath}/${named.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const branch =
      error.keyword === 'anyOf' || error.keyword === 'oneOf' || /\/(anyOf|oneOf)\/\d+\//.test(error.schemaPath);
    found.push({ at: pointerToPath(pointer), pointer, message: error.message ?? 'does not match', branch });
  }
  const out: Found[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    if (seen.has(f.at)) continue;
    if (f.branch) {
      const deeper = [...explained, ...found.filter((g) => g.at !== f.at).map((g) => g.at)].some(
        (at) => at !== f.at && within(at, f.at),
      );
      if (deeper || explained.includes(f.at)) continue;
    }
    seen.add(f.at);
    // The shapes a value of several failed, named together: "must be array or must be object".
    const messages = f.branch
      ? [
          ...new Set(
            found
              .filter((g) => g.at === f.at && g.branch && !/match a schema in|match exactly one/.test(g.message))
              .map((g) => g.message),
          ),
        ]
      : [f.message];
    out.push({
      kind: 'schema',
      at: f.at,
      recorded: sample(valueAt(envelope.payload, f.pointer)) ?? null,
      sandbox: `the description: ${messages.join(' or ') || f.message}`,
    });
  }
  return out;
}
