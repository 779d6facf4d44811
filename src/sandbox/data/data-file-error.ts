/**
 * A data file refused: a UsageError (exit 2) whose message names the file and the place. A module of
 * its own so that what throws or catches it (load.ts, the reset route) does not load the reader and
 * its YAML parser, which `sandbox start` needs only when it is given a data file.
 */
import { UsageError } from '../../errors.js';

export class DataFileError extends UsageError {}
