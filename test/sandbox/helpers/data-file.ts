/** What a data file's text is refused with, from the reader itself (no sandbox started). */
import { expect } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { DataFileError } from '../../../src/sandbox/data/data-file-error.js';
import { parseDataText } from '../../../src/sandbox/data/read.js';

/**
 * The message a refused data file gets: always a DataFileError, which is a UsageError (exit 2), never anything
 * else; `name` is the file name its lines start with.
 */
export function dataFileErrorOf(text: string, json = false, name = json ? 'qa.json' : 'qa.yaml'): string {
  try {
    parseDataText(name, text, json);
  } catch (error) {
    expect(error).toBeInstanceOf(DataFileError);
    expect(error).toBeInstanceOf(UsageError);
    return (error as DataFileError).message;
  }
  throw new Error('no error');
}
