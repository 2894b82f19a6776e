// The `@example` blocks of the packages' JSDoc, and which of them document the public API:
// a declaration a package entry exports (following re-exports), or a member of one.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { repositoryFile } from './markdown-blocks.js';

/** A package entry point: the specifier users import and its source file. */
export interface PackageEntry {
  readonly specifier: string;
  readonly file: string;
}

/** One `@example` block of a declaration's JSDoc. */
export interface JsdocExample {
  readonly file: string;
  /** 1-based line of the block's first code line. */
  readonly line: number;
  readonly code: string;
  /** The declaration's name, `Engine.unitOfWork` for a member. */
  readonly name: string;
  /** The entry that exports it; undefined for an internal declaration. */
  readonly entry: PackageEntry | undefined;
}

const PACKAGE_DIRECTORIES = ['packages', 'scenarios'];

/**
 * Every entry point of the workspace's published packages, from their `exports` maps.
 *
 * @example
 * ```ts
 * packageEntries().map((entry) => entry.specifier); // ['@programrun/cli', '@programrun/dsl', '@programrun/dsl/node', …]
 * ```
 */
export function packageEntries(): PackageEntry[] {
  const manifests = ts.sys
    .readDirectory(repositoryFile('packages'), ['.json'], ['**/node_modules'], ['*/package.json'])
    .concat(repositoryFile('scenarios/package.json'));
  const entries: PackageEntry[] = [];
  for (const manifest of manifests.sort()) {
    const { name, exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
    };
    for (const [subpath, target] of Object.entries(exports ?? {})) {
      const source = (target as Record<string, string> | string)['@programrun/source' as never];
      if (typeof source !== 'string') continue;
      entries.push({
        specifier: subpath === '.' ? name : `${name}${subpath.slice(1)}`,
        file: join(dirname(manifest), source),
      });
    }
  }
  return entries;
}

const exampleCode = (comment: string): string | undefined =>
  /```ts\n([\s\S]*?)```/.exec(comment)?.[1];

/** The declaration a JSDoc-carrying node names, qualified by its container for members. */
function nameOf(node: ts.Node): string {
  if (ts.isVariableStatement(node)) return nameOf(node.declarationList.declarations[0]!);
  const own = (node as { name?: ts.Node }).name?.getText() ?? '(anonymous)';
  const container = node.parent;
  if (
    (ts.isInterfaceDeclaration(container) || ts.isClassDeclaration(container)) &&
    container.name
  ) {
    return `${container.name.text}.${own}`;
  }
  if (ts.isTypeLiteralNode(container) && ts.isTypeAliasDeclaration(container.parent)) {
    return `${container.parent.name.text}.${own}`;
  }
  return own;
}

/**
 * Every `@example` of every source file of the packages (tests left out), each with the
 * public entry that exports its declaration, if one does.
 *
 * @example
 * ```ts
 * const internal = jsdocExamples().filter((example) => !example.entry);
 * ```
 */
export function jsdocExamples(): JsdocExample[] {
  const entries = packageEntries();
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      customConditions: ['@programrun/source'],
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const publicDeclarations = new Map<ts.Node, PackageEntry>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) continue;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        if (!publicDeclarations.has(declaration)) publicDeclarations.set(declaration, entry);
      }
    }
  }
  const entryOf = (node: ts.Node): PackageEntry | undefined => {
    if (ts.isVariableStatement(node)) return entryOf(node.declarationList.declarations[0]!);
    for (let at: ts.Node | undefined = node; at; at = at.parent) {
      const found = publicDeclarations.get(at);
      if (found) return found;
      if (ts.isSourceFile(at)) return undefined;
    }
    return undefined;
  };
  const examples: JsdocExample[] = [];
  const roots = PACKAGE_DIRECTORIES.map((directory) => repositoryFile(directory));
  for (const source of program.getSourceFiles()) {
    const file = source.fileName;
    if (!roots.some((root) => file.startsWith(root)) || file.includes('/node_modules/')) continue;
    if (!file.includes('/src/') || file.endsWith('.test.ts') || file.endsWith('.d.ts')) continue;
    const visit = (node: ts.Node): void => {
      // Only the comments written right above this node (not those of its parents).
      for (const doc of (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) {
        for (const tag of doc.tags ?? []) {
          if (tag.tagName.text !== 'example') continue;
          const text = source.text.slice(tag.pos, tag.end);
          const raw = exampleCode(text);
          if (raw === undefined) continue;
          const code = raw
            .split('\n')
            .map((line) => line.replace(/^\s*\* ?/, ''))
            .join('\n');
          const offset = tag.pos + text.indexOf('```ts');
          const line = source.getLineAndCharacterOfPosition(offset).line + 2;
          examples.push({ file, line, code, name: nameOf(node), entry: entryOf(node) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return examples;
}
