/**
 * Reads a sandbox data file: YAML, or JSON (the same shape), bounded in size after aliases are
 * expanded (limits.ts), checked against the schema and then by validate.ts. Only a regular file
 * is read (a FIFO or a device would hang or never end), and only up to the size limit. The same
 * reader serves `start --data`, `exec --data`, `reset` and `load`, before anything is written. Any problem is one UsageError naming the file, the path in it and the line:
 * `qa.yaml: games[0].achievements[2].target_value: must be greater than start_value (0) (line 31)`.
 * Big files take the fast path (JSON.parse / yaml.parse); the document with positions is built
 * only to find the line of an error.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, parse as parseYaml, parseDocument, YAMLParseError, type Node } from 'yaml';
import { UsageError } from '../../errors.js';
import { firstDuplicateKey, jsonLineOf } from './json-scan.js';
import { legacyWarning, upgradeLegacyProgress } from './legacy.js';
import { checkDataSize, DATA_LIMITS, FILE_TOO_LARGE } from './limits.js';
import type { DataFile } from './model.js';
import { DATA_SCHEMA } from './schema.js';
import { ItemProblem, validateData, type DataPath } from './validate.js';

export class DataFileError extends UsageError {}

export function isJsonFile(path: string): boolean {
  return /\.json$/i.test(path);
}

/** `games[0].achievements[2].target_value` */
export function showPath(path: DataPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(top level)';
}

/** The 1-based line of the deepest node on `path` that exists. */
function lineOf(text: string, path: DataPath, json: boolean): number | undefined {
  if (json) return jsonLineOf(text, path);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
    const offset = node?.range?.[0];
    if (offset !== undefined) return lineCounter.linePos(offset).line;
  }
  return undefined;
}

/** The path of a JSON pointer into `data`: an index where the container is an array, else a name (game ids are digits too). */
function pathOf(data: unknown, pointer: string): DataPath {
  const path: DataPath = [];
  let node = data;
  for (const raw of pointer.split('/').slice(1)) {
    const name = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    const step = Array.isArray(node) && /^\d+$/.test(name) ? Number(name) : name;
    path.push(step);
    node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[step] : undefined;
  }
  return path;
}

function ajvMessage(error: ErrorObject, data: unknown): { path: DataPath; what: string } {
  const path = pathOf(data, error.instancePath);
  const params = error.params as Record<string, unknown>;
  // A bad property name (propertyNames): Ajv names it beside the path of its object.
  const badName = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (badName !== undefined) {
    const rule = error.keyword === 'pattern' ? ` (must match ${String(params.pattern)})` : '';
    return { path: [...path, badName], what: `is not a valid name here${rule}` };
  }
  switch (error.keyword) {
    case 'required':
      return { path, what: `${String(params.missingProperty)} is missing` };
    case 'additionalProperties':
      return { path: [...path, String(params.additionalProperty)], what: 'is not a field of the data file (see `udcli sandbox schema`)' };
    case 'enum':
      return { path, what: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'oneOf':
      return { path, what: 'must be a date-time `YYYY-MM-DD HH:MM:SS` or Unix seconds' };
    default:
      return { path, what: error.message ?? 'is not valid' };
  }
}

/** At most this many problems of a data file are listed. */
export const MAX_PROBLEMS = 20;

let compiled: ReturnType<Ajv['compile']> | undefined;
function schemaCheck(data: unknown): ErrorObject[] {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(DATA_SCHEMA);
  if (compiled(data)) return [];
  // A oneOf's branches each report their own complaint, and propertyNames repeats the name's own
  // error: the one message of each says it all.
  return (compiled.errors ?? []).filter((e) => !e.schemaPath.includes('/oneOf/') && e.keyword !== 'propertyNames');
}

function syntaxError(file: string, text: string, error: unknown, json: boolean): DataFileError {
  if (error instanceof YAMLParseError) {
    const line = error.linePos?.[0]?.line;
    const first = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return new DataFileError(`${file}: not valid YAML: ${first}${line ? ` (line ${line})` : ''}`);
  }
  if (error instanceof RangeError) {
    return new DataFileError(`${file}: not valid ${json ? 'JSON' : 'YAML'}: nested too deeply (the limit of a data file is ${DATA_LIMITS.depth} levels)`);
  }
  if (!json) {
    // The yaml package's alias bound (a ReferenceError), and anything else it throws.
    const message = /alias count/i.test((error as Error).message)
      ? `more than ${DATA_LIMITS.aliases} alias expansions (the limit of a data file)`
      : (error as Error).message;
    return new DataFileError(`${file}: not valid YAML: ${message}`);
  }
  const message = (error as Error).message;
  const position = /position (\d+)/.exec(message)?.[1];
  const line = position === undefined ? /line (\d+)/.exec(message)?.[1] : String(text.slice(0, Number(position)).split('\n').length);
  return new DataFileError(`${file}: not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/ \(line \d+ column \d+\)$/, '')}${line ? ` (line ${line})` : ''}`);
}

/** Told one line when a file is read with old words rewritten (legacy.ts); nothing else. */
export type DataWarn = (line: string) => void;

/** Parses and checks a data file's text; `file` names it in messages. */
export function parseDataText(file: string, text: string, json: boolean, warn?: DataWarn): DataFile {
  let raw: unknown;
  try {
    raw = json ? JSON.parse(text) : parseYaml(text, { maxAliasCount: DATA_LIMITS.aliases });
  } catch (error) {
    throw syntaxError(file, text, error, json);
  }
  if (json) {
    const duplicate = firstDuplicateKey(text);
    if (duplicate) {
      const where = showPath([...duplicate.path, duplicate.key]);
      throw new DataFileError(`${file}: ${where}: the key "${duplicate.key}" is given twice in one object (line ${duplicate.line})`);
    }
  }
  if (raw === null || raw === undefined) raw = {};
  // Size bounds first: a file too big once expanded stops at once, with that one problem.
  checkDataSize(raw, (path: DataPath, what: string): never => {
    const line = lineOf(text, path, json);
    throw new DataFileError(`${file}: ${showPath(path)}: ${what}${line ? ` (line ${line})` : ''}`);
  });
  // Then every problem is listed (up to MAX_PROBLEMS), each with its path and line.
  const problems: string[] = [];
  let count = 0;
  const note = (path: DataPath, what: string): void => {
    const line = lineOf(text, path, json);
    const shown = `${showPath(path)}: ${what}${line ? ` (line ${line})` : ''}`;
    if (problems.includes(shown)) return;
    count++;
    if (problems.length < MAX_PROBLEMS) problems.push(shown);
  };
  const fail = (path: DataPath, what: string): never => {
    note(path, what);
    throw new ItemProblem(what);
  };
  for (const error of schemaCheck(raw)) {
    const { path, what } = ajvMessage(error, raw);
    note(path, what);
  }
  // The checks beyond the schema need its shape: they run on a file that has it, with old words
  // already read as the platform's.
  let legacy: DataPath[] = [];
  if (problems.length === 0) {
    legacy = upgradeLegacyProgress(raw as DataFile);
    try {
      validateData(raw as DataFile, fail);
    } catch (error) {
      if (!(error instanceof ItemProblem)) throw error;
    }
  }
  if (count === 1) throw new DataFileError(`${file}: ${problems[0]}`);
  if (count > 1) {
    const more = count > problems.length ? `\n  … and ${count - problems.length} more` : '';
    throw new DataFileError(`${file}: ${count} problems:\n  ${problems.join('\n  ')}${more}`);
  }
  if (legacy.length > 0 && warn) warn(legacyWarning(file, showPath(legacy[0]!), lineOf(text, legacy[0]!, json), legacy.length));
  return raw as DataFile;
}

/** The text of a regular file of at most the size limit; never waits on a FIFO, never reads a device. */
function readBounded(path: string): string {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DataFileError(`cannot read the data file ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new DataFileError(`cannot read the data file ${path}: not a regular file (a data file is a YAML or JSON file)`);
    if (stat.size > DATA_LIMITS.fileBytes) throw new DataFileError(`${path}: ${FILE_TOO_LARGE}`);
    // A file growing meanwhile is read no further than the limit.
    const buffer = Buffer.alloc(Math.min(stat.size, DATA_LIMITS.fileBytes) + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0; ) length += n;
    if (length > DATA_LIMITS.fileBytes) throw new DataFileError(`${path}: ${FILE_TOO_LARGE}`);
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(`cannot read the data file ${path}: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

export function readDataFile(path: string, warn?: DataWarn): DataFile {
  return parseDataText(path, readBounded(path).replace(/^\uFEFF/, ''), isJsonFile(path), warn);
}
