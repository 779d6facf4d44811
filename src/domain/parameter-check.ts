/**
 * A parameter's declaration (parameters.ts) is its check: its type, bounds, pattern or choices say
 * what a value may be, and its `refusal` the platform's words when the pattern refuses one
 * (docs/SERVICE.md: Errors). The sandbox answers those words in its 400 and the CLI's derived
 * commands refuse with them before sending; neither writes a check of its own for a bound.
 */
import { PATTERNS, type ParamSpec } from './parameters.js';

/** How a value as sent is shown in the words: cut at `max` characters and made printable by the caller. */
export type Show = (value: string, max?: number) => string;

export type Checked = { value: string | number } | { problem: string };

const INTEGER = new RegExp(PATTERNS.integer);
const VALUE = /\{value(?::(\d+))?\}/g;
/** Each pattern compiled once: the checks run on every request. */
const compiled = new Map<string, RegExp>();

function patternOf(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) compiled.set(pattern, (re = new RegExp(pattern)));
  return re;
}

/** The value, an integer when the declaration's type is, or what is wrong with it in the platform's words. */
export function checkValue(spec: ParamSpec, value: string, show: Show): Checked {
  const { schema } = spec;
  if (schema.type === 'integer') {
    if (!INTEGER.test(value)) return { problem: `expected an integer, got "${show(value, 20)}"` };
    const n = Number(value);
    if (typeof schema.minimum === 'number' && n < schema.minimum)
      return { problem: `must be at least ${schema.minimum}` };
    if (typeof schema.maximum === 'number' && n > schema.maximum)
      return { problem: `must be at most ${schema.maximum}` };
    return { value: spec.clampedTo === undefined ? n : Math.min(n, spec.clampedTo) };
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return { problem: `expected one of ${schema.enum.join(', ')}` };
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
    return { problem: `longer than ${schema.maxLength} characters` };
  if (typeof schema.pattern === 'string' && !patternOf(schema.pattern).test(value)) {
    const words = spec.refusal ?? `expected the form ${schema.pattern}, got "{value}"`;
    return {
      problem: words.replace(VALUE, (_, max?: string) => show(value, max === undefined ? undefined : Number(max))),
    };
  }
  return { value };
}
