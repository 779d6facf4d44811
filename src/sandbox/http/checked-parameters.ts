/**
 * A request's parameters checked by their declarations (src/domain/parameter-check.ts): a value
 * the declaration refuses is the 400 `invalid parameter: NAME (the platform's words)`, a required
 * one missing `missing parameter: NAME`. The parsers of schemas.ts are made of these, and a row
 * whose parameters need nothing more is checked by `rowParameters` alone.
 */
import type { EndpointRow } from '../../domain/endpoints.js';
import { checkValue } from '../../domain/parameter-check.js';
import type { ParamSpec } from '../../domain/parameters.js';
import { fail, shown } from './failure.js';
import type { Query } from './query.js';

/** A value as sent, checked by `spec`; the 400 names `name` (an alias's own name) when given. */
export function checked(spec: ParamSpec, value: string, name: string = spec.name): string | number {
  const result = checkValue(spec, value, shown);
  if ('problem' in result) throw fail.invalidParameter(name, result.problem);
  return result.value;
}

/** A parameter's value: checked when given, the 400 when required and missing, else undefined. */
function given(q: Query, spec: ParamSpec): string | number | undefined {
  const value = q.get(spec.name);
  if (value !== undefined) return checked(spec, value);
  if (spec.required) throw fail.missingParameter(spec.name);
  return undefined;
}

/** A text parameter, checked by its declaration. */
export function textParameter(q: Query, spec: ParamSpec): string | undefined {
  const value = given(q, spec);
  return value === undefined ? undefined : String(value);
}

/** An integer parameter: within its declared bounds (a larger one counted as its cap, when it has one). */
export function integerParameter(q: Query, spec: ParamSpec): number | undefined {
  const value = given(q, spec);
  return value === undefined ? undefined : Number(value);
}

/** What a row's checked parameters are: the element under its name, each parameter by its name. */
export type RowParameters<R extends EndpointRow> = { [E in R['element'] as E['name']]: string } & {
  [P in R['parameters'][number] as P['name']]?: P['schema'] extends { type: 'integer' } ? number : string;
};

/** Every parameter a row declares, checked by its declaration; an absent one is its default, if it has one. */
export function rowParameters<R extends EndpointRow>(row: R, q: Query, element: string): RowParameters<R> {
  const values: Record<string, string | number | undefined> = {
    [row.element.name]: String(checked(row.element, element)),
  };
  for (const spec of row.parameters) {
    values[spec.name] = given(q, spec) ?? (spec.schema.default as string | number | undefined);
  }
  return values as RowParameters<R>;
}
