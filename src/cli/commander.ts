/**
 * commander's classes, loaded with require(). commander is a CommonJS package: importing it
 * into an ES module goes through node's CJS-to-ESM translation (its source is parsed again for
 * export names), about 4 ms of every start-up on a small machine, a tenth of `node -e 0`.
 * Types still come from the package (`import type { Command } from 'commander'` works as usual);
 * values come from here, so the built file resolves the package once.
 */
import type * as Commander from 'commander';
import { packageRequire } from '../package-paths.js';

const commander = packageRequire('commander') as typeof Commander;

export const Command: typeof Commander.Command = commander.Command;
export type Command = Commander.Command;
export const Option: typeof Commander.Option = commander.Option;
export type Option = Commander.Option;
export const Help: typeof Commander.Help = commander.Help;
export type Help = Commander.Help;
export const Argument: typeof Commander.Argument = commander.Argument;
export type Argument = Commander.Argument;
