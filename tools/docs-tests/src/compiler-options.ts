import ts from 'typescript';
import { repositoryFile } from './markdown-blocks.js';

/**
 * The repository's strict compiler options (`tsconfig.base.json`), for checking snippets
 * that are not part of a package: no output, unused names allowed.
 *
 * @example
 * ```ts
 * const program = ts.createProgram(files, snippetCompilerOptions());
 * ```
 */
export function snippetCompilerOptions(): ts.CompilerOptions {
  const configFile = ts.readConfigFile(repositoryFile('tsconfig.base.json'), (path) =>
    ts.sys.readFile(path),
  );
  const { options } = ts.parseJsonConfigFileContent(
    configFile.config,
    ts.sys,
    repositoryFile('tools/docs-tests'),
  );
  return { ...options, noEmit: true, declaration: false, sourceMap: false, noUnusedLocals: false };
}
