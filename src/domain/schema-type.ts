/**
 * The TypeScript type a JSON Schema literal (`as const`) describes, for the subset the payload
 * declarations use (src/domain/payloads.ts): so a payload's shape is written once, as the schema
 * the sandbox validates and describes with, and the types follow from it. Type-level only: no
 * code runs, so the CLI may import the types without loading anything.
 */

type Properties = Readonly<Record<string, unknown>>;

/** One object type rather than an intersection, as a reader (and an editor's hover) expects. */
type Flat<T> = { [K in keyof T]: T[K] };

type ObjectOf<P extends Properties, R extends PropertyKey> = Flat<
  { -readonly [K in keyof P & R]: FromSchema<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: FromSchema<P[K]> }
>;

export type FromSchema<S> = S extends { readonly anyOf: ReadonlyArray<infer U> }
  ? FromSchema<U>
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: ReadonlyArray<infer E> }
      ? E
      : S extends { readonly type: 'string' }
        ? string
        : S extends { readonly type: 'integer' | 'number' }
          ? number
          : S extends { readonly type: 'boolean' }
            ? boolean
            : S extends { readonly type: 'null' }
              ? null
              : S extends { readonly type: 'array'; readonly maxItems: 0 }
                ? never[]
                : S extends { readonly type: 'array'; readonly items: infer I }
                  ? Array<FromSchema<I>>
                  : S extends { readonly type: 'object'; readonly properties: infer P extends Properties }
                    ? ObjectOf<
                        P,
                        S extends { readonly required: ReadonlyArray<infer R extends PropertyKey> } ? R : never
                      >
                    : S extends { readonly type: 'object'; readonly additionalProperties: infer A extends object }
                      ? Record<string, FromSchema<A>>
                      : unknown;

/** A reply as a client reads it: the described fields, and whatever else the real platform adds. */
export type Tolerant<T> = T & { [extra: string]: unknown };
