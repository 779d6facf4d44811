/**
 * Reads a sandbox data file: YAML, or JSON (the same shape), bounded before it is parsed (its
 * nesting and aliases, prescan.ts) and after (its size once aliases are expanded, limits.ts),
 * checked against the schema and then by validate.ts. Only a regular file
 * is read (a FIFO or a device would hang or never end), and only up to the size limit. The same
 * reader serves `start --data`, `exec --data`, `reset` and `load`, before anything is written. Any problem is one
 * UsageError naming the file, the path in it and the line:
 * `qa.yaml: games[0].achievements[2].target_value: must be greater than start_value (0) (line 31)`.
 * Big files take the fast path (JSON.parse / yaml.parse); the document with positions is built
 * only to find the line of an error, and only for the problems shown. A server reads YAML off its
 * thread (parseDataTextOffThread): the yaml package takes most of a second for a megabyte.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, parse as parseYaml, parseDocument, YAMLParseError, type Node } from 'yaml';
import { firstDuplicateKey, jsonLineOf } from './json-scan.js';
import { legacyWarning, upgradeLegacyProgress } from './legacy.js';
import { DataFileError } from './data-file-error.js';
import { checkDataSize, DATA_LIMITS, FILE_TOO_LARGE } from './limits.js';
import { prescanData } from './prescan.js';
import { parseYamlOffThread, type YamlFailure } from './yaml-worker.js';
import type { DataFile } from './model.js';
import { DATA_SCHEMA } from './schema.js';
import { ItemProblem, validateData, type DataPath } from './validate.js';

export function isJsonFile(path: string): boolean {
  return /\.json$/i.test(path);
}

/** `games[0].achievements[2].target_value` */
export function showPath(path: DataPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(top level)';
}

/** The 1-based line of the deepest node on each path that exists; the YAML document is built once. */
function linesOf(text: string, paths: DataPath[], json: boolean): Array<number | undefined> {
  if (json) return paths.map((path) => jsonLineOf(text, path));
  if (paths.length === 0) return [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  return paths.map((path) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
      const offset = node?.range?.[0];
      if (offset !== undefined) return lineCounter.linePos(offset).line;
    }
    return undefined;
  });
}

/**
 * The path of a JSON pointer into `data`: an index where the container is an array, else a name (game ids are digits
 * too).
 */
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
      return {
        path: [...path, String(params.additionalProperty)],
        what: 'is not a field of the data file (see `udcli sandbox schema`)',
      };
    case 'enum':
      return {
        path,
        what: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
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

/** A YAML error as the yaml package gives it, in this thread or from the worker. */
function yamlFailureOf(error: unknown): YamlFailure {
  const line = error instanceof YAMLParseError ? error.linePos?.[0]?.line : undefined;
  return {
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
    ...(line ? { line } : {}),
  };
}

const NESTED_TOO_DEEPLY = `nested deeper than ${DATA_LIMITS.depth} levels (the limit of a data file)`;
const TOO_MANY_ALIASES = `more than ${DATA_LIMITS.aliases} alias expansions (the limit of a data file)`;

function yamlSyntaxError(file: string, error: YamlFailure): DataFileError {
  // The yaml package reports its own stack's end as a syntax error: a file the prescan let through, nested too deeply
  // all the same.
  if (error.name === 'RangeError' || /call stack/i.test(error.message))
    return new DataFileError(`${file}: not valid YAML: ${NESTED_TOO_DEEPLY}`);
  if (error.name === 'YAMLParseError') {
    const first = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return new DataFileError(`${file}: not valid YAML: ${first}${error.line ? ` (line ${error.line})` : ''}`);
  }
  // The yaml package's alias bound (a ReferenceError), and anything else it throws.
  return new DataFileError(
    `${file}: not valid YAML: ${/alias count/i.test(error.message) ? TOO_MANY_ALIASES : error.message}`,
  );
}

function jsonSyntaxError(file: string, text: string, error: unknown): DataFileError {
  if (error instanceof RangeError) return new DataFileError(`${file}: not valid JSON: ${NESTED_TOO_DEEPLY}`);
  const message = (error as Error).message;
  const position = /position (\d+)/.exec(message)?.[1];
  const line =
    position === undefined
      ? /line (\d+)/.exec(message)?.[1]
      : String(text.slice(0, Number(position)).split('\n').length);
  return new DataFileError(
    `${file}: not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/ \(line \d+ column \d+\)$/, '')}${line ? ` (line ${line})` : ''}`,
  );
}

/** The bounds that hold before any parser sees the text: its nesting and its aliases. */
function prescan(file: string, text: string, json: boolean): void {
  const problem = prescanData(text, json, DATA_LIMITS);
  if (!problem) return;
  const format = json ? 'JSON' : 'YAML';
  if (problem.kind === 'depth') throw new DataFileError(`${file}: ${NESTED_TOO_DEEPLY} (line ${problem.line})`);
  if (problem.kind === 'aliases') throw new DataFileError(`${file}: not valid ${format}: ${TOO_MANY_ALIASES}`);
  throw new DataFileError(
    `${file}: not valid ${format}: a flow collection ([…] or {…}) goes on at a line indented no more than the block it is in (line ${problem.line})`,
  );
}

interface Problem {
  path: DataPath;
  what: string;
}

/** What checkParsed found: the problems, how many, and where old words were rewritten (legacy.ts). */
interface Found {
  problems: Problem[];
  count: number;
  legacy: DataPath[];
}

/** Told one line when a file is read with old words rewritten (legacy.ts); nothing else. */
export type DataWarn = (line: string) => void;

/** Thrown by checkParsed when a size bound is crossed: that one problem is the answer. */
class SizeProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.what);
  }
}

/** What is wrong with a parsed file: its problems (the first MAX_PROBLEMS) and how many there are. */
function checkParsed(file: string, text: string, json: boolean, raw: unknown): Found {
  if (json) {
    const duplicate = firstDuplicateKey(text);
    if (duplicate) {
      const where = showPath([...duplicate.path, duplicate.key]);
      throw new DataFileError(
        `${file}: ${where}: the key "${duplicate.key}" is given twice in one object (line ${duplicate.line})`,
      );
    }
  }
  // Size bounds first: a file too big once expanded stops at once, with that one problem.
  try {
    checkDataSize(raw, (path: DataPath, what: string): never => {
      throw new SizeProblem({ path, what });
    });
  } catch (error) {
    if (error instanceof SizeProblem) return { problems: [error.problem], count: 1, legacy: [] };
    throw error;
  }
  // Then every problem is counted, the first MAX_PROBLEMS kept, each with its path.
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const note = (path: DataPath, what: string): void => {
    const key = `${showPath(path)}\n${what}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (problems.length < MAX_PROBLEMS) problems.push({ path, what });
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
  return { problems, count: seen.size, legacy };
}

/** One error listing the problems, each with its line; none when the file is good. */
function problemsError(
  file: string,
  { problems, count }: { problems: Problem[]; count: number },
  lines: Array<number | undefined>,
): DataFileError {
  const shown = problems.map(
    ({ path, what }, k) => `${showPath(path)}: ${what}${lines[k] ? ` (line ${lines[k]})` : ''}`,
  );
  if (count === 1) return new DataFileError(`${file}: ${shown[0]}`);
  const more = count > shown.length ? `\n  … and ${count - shown.length} more` : '';
  return new DataFileError(`${file}: ${count} problems:\n  ${shown.join('\n  ')}${more}`);
}

/** Parses and checks a data file's text in this thread; `file` names it in messages. */
export function parseDataText(file: string, text: string, json: boolean, warn?: DataWarn): DataFile {
  prescan(file, text, json);
  let raw: unknown;
  try {
    // Warnings (an unknown tag, say) are the file's text: never written to the console.
    raw = json ? JSON.parse(text) : parseYaml(text, { maxAliasCount: DATA_LIMITS.aliases, logLevel: 'error' });
  } catch (error) {
    throw json ? jsonSyntaxError(file, text, error) : yamlSyntaxError(file, yamlFailureOf(error));
  }
  raw ??= {};
  const found = checkParsed(file, text, json, raw);
  if (found.count > 0)
    throw problemsError(
      file,
      found,
      linesOf(
        text,
        found.problems.map((p) => p.path),
        json,
      ),
    );
  if (found.legacy.length > 0 && warn)
    warnLegacy(file, found.legacy, linesOf(text, found.legacy.slice(0, 1), json)[0], warn);
  return raw as DataFile;
}

/**
 * The same, for a server: YAML is parsed (and its lines found) in a worker thread, which a
 * hostile file can exhaust without touching the server. JSON.parse is fast enough to stay.
 */
export async function parseDataTextOffThread(
  file: string,
  text: string,
  json: boolean,
  warn?: DataWarn,
): Promise<DataFile> {
  if (json) return parseDataText(file, text, json, warn);
  prescan(file, text, json);
  const parsed = await parseYamlOffThread(text, DATA_LIMITS.aliases);
  try {
    if ('error' in parsed) throw yamlSyntaxError(file, parsed.error);
    const raw = parsed.value ?? {};
    const found = checkParsed(file, text, json, raw);
    if (found.count > 0) throw problemsError(file, found, await parsed.lines(found.problems.map((p) => p.path)));
    if (found.legacy.length > 0 && warn)
      warnLegacy(file, found.legacy, (await parsed.lines(found.legacy.slice(0, 1)))[0], warn);
    return raw as DataFile;
  } finally {
    parsed.close();
  }
}

function warnLegacy(file: string, legacy: DataPath[], line: number | undefined, warn: DataWarn): void {
  warn(legacyWarning(file, showPath(legacy[0]!), line, legacy.length));
}

/** Opened non-blocking: opening a FIFO for reading would otherwise wait for a writer. */
function openDataFile(path: string): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new DataFileError(`cannot read the data file ${path}: ${why}`);
  }
}

/** The text of a regular file of at most the size limit; never waits on a FIFO, never reads a device. */
function readBounded(path: string): string {
  const fd = openDataFile(path);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new DataFileError(
        `cannot read the data file ${path}: not a regular file (a data file is a YAML or JSON file)`,
      );
    if (stat.size > DATA_LIMITS.fileBytes) throw new DataFileError(`${path}: ${FILE_TOO_LARGE}`);
    // A file growing meanwhile is read no further than the limit.
    const buffer = Buffer.alloc(Math.min(stat.size, DATA_LIMITS.fileBytes) + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0; )
      length += n;
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
