/**
 * The command a row of the endpoint table declares (its `command`, src/domain/endpoints.ts):
 * `udcli <name> <element>` with an option for each parameter the row declares (`pid` → `--pid`),
 * each value checked by its declaration before anything is sent (src/domain/parameter-check.ts:
 * the platform's words, exit 2), the reply printed as its payload schema says: an object as a
 * key/value table, a list as a table, JSON with --json. Loaded only when such a command runs.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { printable } from '../printable.js';
import type { EndpointRow } from '../domain/endpoints.js';
import { checkValue } from '../domain/parameter-check.js';
import type { ParamSpec, ValueSchema } from '../domain/parameters.js';
import type { Column } from '../output/types.js';
import { cellText, printItem, printList } from '../ops/args.js';
import type { Factory } from '../ops/factory.js';
import { addVerb, type Verb } from './verb.js';

/** `friends_cap` → `friendsCap`, as commander names an option's value. */
const optionKey = (name: string): string => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const optionFlag = (name: string): string => `--${name.replaceAll('_', '-')}`;

const show = (value: string, max = 64): string => printable(value.length > max ? `${value.slice(0, max)}…` : value);

/** A value the declaration refuses: one line in the platform's words, before anything is sent. */
function checkedArgument(spec: ParamSpec, value: string, label: string): string | number {
  const result = checkValue(spec, value, show);
  if ('problem' in result) throw new UsageError(`invalid ${label}: ${result.problem}`);
  return result.value;
}

/** A column per property of an object schema, in the order the schema lists them. */
function columnsOf(schema: ValueSchema): Array<Column<Record<string, unknown>>> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return Object.keys(properties).map((key) => ({
    key,
    header: key.toUpperCase().replaceAll('_', ' '),
    // A flag reads as a word in a table (cellText shows false as nothing).
    cell: (row) => (typeof row[key] === 'boolean' ? (row[key] ? 'yes' : 'no') : cellText(row[key])),
  }));
}

async function runRow(
  factory: Factory,
  row: EndpointRow,
  element: string | undefined,
  opts: Record<string, string | undefined>,
): Promise<void> {
  const checkedElement =
    element === undefined ? undefined : String(checkedArgument(row.element, element, row.element.name));
  const values: Record<string, string | number> = {};
  for (const spec of row.parameters) {
    const given = opts[optionKey(spec.name)];
    if (given === undefined) {
      if (spec.required) throw new UsageError(`missing ${optionFlag(spec.name)}`);
      continue;
    }
    values[spec.name] = checkedArgument(spec, given, optionFlag(spec.name));
  }
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin(row.summary, () => client.send(row, checkedElement, values));
  const { payload } = row;
  if (payload.type === 'array') {
    const items = (payload.items ?? {}) as ValueSchema;
    await printList(factory, reply as { payload: Array<Record<string, unknown>>; bodyText: string }, columnsOf(items));
  } else await printItem(factory, reply as { payload: Record<string, unknown>; bodyText: string }, columnsOf(payload));
}

/** The command a row declares, as one declaration (src/cli/verb.ts). */
export function endpointVerb(row: EndpointRow & { command: NonNullable<EndpointRow['command']> }): Verb {
  const hasElement = row.path.includes('{');
  return {
    name: row.command.name,
    description: row.command.description,
    arguments: hasElement ? [[`<${row.element.name}>`, row.element.description]] : [],
    options: row.parameters.map(
      (spec) =>
        [`${optionFlag(spec.name)} <value>`, `${spec.required ? '(required) ' : ''}${spec.description}`] as const,
    ),
    run: (factory: Factory, ...params: never[]) => {
      const given = params as unknown[];
      const [element, opts] = (hasElement ? given : [undefined, ...given]) as [
        string | undefined,
        Record<string, string>,
      ];
      return runRow(factory, row, element, opts);
    },
  };
}

/** The command module (src/ops/factory.ts: CommandModule) of a row that declares a command. */
export function endpointModule(row: EndpointRow) {
  return {
    register: (program: Command, factory: Factory) => {
      addVerb(program, factory, endpointVerb(row as Parameters<typeof endpointVerb>[0]));
    },
  };
}
