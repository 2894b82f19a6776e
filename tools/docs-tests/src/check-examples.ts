// Type-checks `@example` blocks as modules of their own against the workspace's packages
// (from source): each sees every export of its package's entries, and a name it uses
// without defining (`engine`, `scope`, a variable from the surrounding prose) is declared
// `any`, so what is checked is how the example calls the API.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { snippetCompilerOptions } from './compiler-options.js';
import type { JsdocExample, PackageEntry } from './jsdoc-examples.js';
import { repositoryFile } from './markdown-blocks.js';

/**
 * Names the examples use for the usual objects, declared with their real types when an
 * example leaves them undefined (anything else becomes `any`).
 */
const KNOWN_NAMES: Readonly<Record<string, readonly [specifier: string, type: string]>> = {
  engine: ['@programrun/engine', 'Engine'],
  scope: ['@programrun/engine', 'Scope'],
  store: ['@programrun/engine', 'StoreV1'],
  accounts: ['@programrun/engine', 'Accounts'],
  records: ['@programrun/engine', 'LifecycleRecord[]'],
  compiled: ['@programrun/dsl', 'CompiledScenario'],
  definition: ['@programrun/dsl', 'ScenarioDefinition'],
  handler: ['@programrun/http', 'Handler'],
  report: ['@programrun/testing', 'CheckReport'],
};

/** The declaration of a name an example leaves undefined. */
function declarationOf(name: string): string {
  const known = KNOWN_NAMES[name];
  if (!known) return `declare const ${name}: any;`;
  const [specifier, type] = known;
  const base = type.replace('[]', '');
  return `import type { ${base} as Known_${name} } from '${specifier}'; declare const ${name}: Known_${name}${type.endsWith('[]') ? '[]' : ''};`;
}

/** Diagnostics that mean "this name is not defined here". */
const UNDEFINED_NAME = new Set([2304, 2552, 18004, 2582]);

/** The names an entry exports, and which of them are only types, for the example's imports. */
function exportedNames(
  program: ts.Program,
  entry: PackageEntry,
): { name: string; type: boolean }[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry.file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) return [];
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.name, type: (target.flags & ts.SymbolFlags.Value) === 0 };
  });
}

/** Names the example defines or imports itself (they must not be imported again). */
function ownNames(code: string): Set<string> {
  const own = new Set<string>();
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isImportSpecifier(node) || ts.isNamespaceImport(node) || ts.isImportClause(node)) {
      if (node.name) own.add(node.name.text);
    }
    if (
      (ts.isVariableDeclaration(node) ||
        ts.isFunctionDeclaration(node) ||
        ts.isClassDeclaration(node)) &&
      node.name &&
      ts.isIdentifier(node.name)
    )
      own.add(node.name.text);
    if (ts.isBindingElement(node) && ts.isIdentifier(node.name)) own.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return own;
}

/**
 * The type errors of public examples, as `file:line:column: message` (empty when every
 * example type-checks).
 *
 * @example
 * ```ts
 * expect(checkExamples(jsdocExamples().filter((example) => example.entry), scratch)).toEqual([]);
 * ```
 */
export function checkExamples(examples: readonly JsdocExample[], scratch: string): string[] {
  mkdirSync(scratch, { recursive: true });
  const options = snippetCompilerOptions();
  const entries = [
    ...new Map(examples.map((example) => [example.entry!.specifier, example.entry!])).values(),
  ];
  const base = ts.createProgram(
    entries.map((entry) => entry.file),
    options,
  );
  const namesOf = new Map(entries.map((entry) => [entry.specifier, exportedNames(base, entry)]));
  // Every entry of the example's package: `@programrun/dsl` examples see `@programrun/dsl/node` too.
  const packageOf = (specifier: string) => specifier.split('/').slice(0, 2).join('/');

  const files = new Map<string, { example: JsdocExample; preludeLines: number }>();
  const write = (example: JsdocExample, index: number, declared: readonly string[]) => {
    const own = ownNames(example.code);
    const seen = new Set<string>(own);
    const imports: string[] = [];
    for (const entry of entries) {
      if (packageOf(entry.specifier) !== packageOf(example.entry!.specifier)) continue;
      const names = namesOf.get(entry.specifier)!.filter(({ name }) => {
        if (seen.has(name) || name === 'default') return false;
        seen.add(name);
        return true;
      });
      const values = names.filter(({ type }) => !type).map(({ name }) => name);
      const types = names.filter(({ type }) => type).map(({ name }) => name);
      if (values.length > 0)
        imports.push(`import { ${values.join(', ')} } from '${entry.specifier}';`);
      if (types.length > 0)
        imports.push(`import type { ${types.join(', ')} } from '${entry.specifier}';`);
    }
    const declarations = declared.map(declarationOf);
    const prelude = [...imports, 'export {};', ...declarations];
    const path = join(scratch, `example_${index}.ts`);
    writeFileSync(path, `${prelude.join('\n')}\n${example.code}\n`);
    files.set(path, { example, preludeLines: prelude.length });
    return path;
  };
  const paths = examples.map((example, index) => write(example, index, []));
  const check = (roots: string[]) => ts.getPreEmitDiagnostics(ts.createProgram(roots, options));
  // Pass 1: which names each example leaves undefined.
  const undefinedNames = new Map<string, Set<string>>();
  for (const diagnostic of check(paths)) {
    const file = diagnostic.file?.fileName;
    if (!file || !files.has(file) || !UNDEFINED_NAME.has(diagnostic.code)) continue;
    const name = diagnostic.file!.text.slice(
      diagnostic.start,
      diagnostic.start! + diagnostic.length!,
    );
    if (!undefinedNames.has(file)) undefinedNames.set(file, new Set());
    undefinedNames.get(file)!.add(name);
  }
  examples.forEach((example, index) => {
    const names = undefinedNames.get(paths[index]!);
    if (names) write(example, index, [...names]);
  });
  // Pass 2: what is left is how the examples use the API.
  return check(paths)
    .filter((diagnostic) => diagnostic.file && files.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const { example, preludeLines } = files.get(diagnostic.file!.fileName)!;
      const { line, character } = diagnostic.file!.getLineAndCharacterOfPosition(
        diagnostic.start ?? 0,
      );
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      const where = `${example.file.replace(repositoryFile(''), '')}:${example.line + line - preludeLines}`;
      return `${where}:${character + 1}: ${example.name}: ${message}`;
    });
}
