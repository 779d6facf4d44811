/**
 * Loads one change declaration by its file name (src/cli/changes/<noun>-<verb>.ts). From the
 * sources, the file itself; in the built file, scripts/build.js puts in its place a module that
 * imports each declaration it found there, so a new verb is still one new file and nothing else.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHANGES_SOURCE_DIR } from '../package-paths.js';
import type { ChangeDeclaration } from './change-registry.js';

export function importDeclaration(file: string): Promise<{ default: ChangeDeclaration }> {
  return import(pathToFileURL(join(CHANGES_SOURCE_DIR, file)).href) as Promise<{ default: ChangeDeclaration }>;
}
