/**
 * The client package's API reference (docs/client-api.md), generated from its declarations with the TypeScript
 * compiler: every export of `@rtserve/client` and `@rtserve/client/node`, its signature as the type checker
 * prints it and its doc comment; classes and interfaces with their public members, inherited ones included.
 * `npm run docs:client` writes the file; test/unit/client/api-doc.test.ts fails when it is out of date.
 */
import { join } from 'node:path';
import ts from 'typescript';

const ENTRIES: readonly (readonly [string, string])[] = [
  ['@rtserve/client', 'packages/client/src/index.ts'],
  ['@rtserve/client/node', 'packages/client/src/node.ts'],
];

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const cell = (s: string): string => oneLine(s).replace(/\|/g, '\\|');

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  return oneLine(ts.displayPartsToString(symbol.getDocumentationComment(checker)));
}

function isPublic(symbol: ts.Symbol): boolean {
  if (symbol.name.startsWith('#') || symbol.name.startsWith('__')) return false;
  const decl = symbol.declarations?.[0];
  if (decl === undefined) return false;
  return (ts.getCombinedModifierFlags(decl) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
}

/** A member's line: `name(params): result` for methods, `name: type` for properties and accessors. */
function memberLine(member: ts.Symbol, checker: ts.TypeChecker, at: ts.Node): string {
  const type = checker.getTypeOfSymbolAtLocation(member, at);
  const decl = member.declarations?.[0];
  const optional = (member.flags & ts.SymbolFlags.Optional) !== 0 ? '?' : '';
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  if (decl !== undefined && (ts.isMethodDeclaration(decl) || ts.isMethodSignature(decl))) {
    return type
      .getCallSignatures()
      .map((s) => `${member.name}${checker.signatureToString(s, at, flags)}`)
      .join('; ');
  }
  return `${member.name}${optional}: ${checker.typeToString(type, at, flags)}`;
}

function membersTable(type: ts.Type, checker: ts.TypeChecker, at: ts.Node): string[] {
  const rows = checker
    .getPropertiesOfType(type)
    .filter(isPublic)
    .map((m) => `| \`${cell(memberLine(m, checker, at))}\` | ${cell(docOf(m, checker))} |`);
  return rows.length === 0 ? [] : ['', '| member | |', '|---|---|', ...rows];
}

function renderExport(name: string, symbol: ts.Symbol, checker: ts.TypeChecker): string[] {
  const s = (symbol.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(symbol) : symbol;
  const decl = s.declarations?.[0];
  if (decl === undefined) return [];
  const doc = docOf(s, checker);
  const flags = ts.TypeFormatFlags.NoTruncation;
  const out: string[] = [];
  if (ts.isClassDeclaration(decl)) {
    out.push(`### class \`${name}\``, '');
    const ctor = checker.getTypeOfSymbolAtLocation(s, decl).getConstructSignatures()[0];
    if (ctor !== undefined) out.push(`\`new ${name}${cell(checker.signatureToString(ctor, decl, flags))}\``, '');
    if (doc !== '') out.push(doc);
    out.push(...membersTable(checker.getDeclaredTypeOfSymbol(s), checker, decl));
  } else if (ts.isInterfaceDeclaration(decl)) {
    out.push(`### interface \`${name}\``);
    if (doc !== '') out.push('', doc);
    out.push(...membersTable(checker.getDeclaredTypeOfSymbol(s), checker, decl));
  } else if (ts.isTypeAliasDeclaration(decl)) {
    out.push(`### type \`${name}\``, '', `\`type ${name} = ${cell(decl.type.getText())}\``);
    if (doc !== '') out.push('', doc);
  } else if (ts.isFunctionDeclaration(decl)) {
    const sigs = checker.getTypeOfSymbolAtLocation(s, decl).getCallSignatures();
    out.push(`### function \`${name}\``, '', ...sigs.map((g) => `\`${name}${cell(checker.signatureToString(g, decl, flags))}\``));
    if (doc !== '') out.push('', doc);
  } else {
    out.push(`### const \`${name}\``, '', `\`${name}: ${cell(checker.typeToString(checker.getTypeOfSymbolAtLocation(s, decl), decl, flags))}\``);
    if (doc !== '') out.push('', doc);
  }
  return [...out, ''];
}

export function renderClientApiDoc(root: string): string {
  const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const program = ts.createProgram(
    ENTRIES.map(([, f]) => join(root, f)),
    { ...config.options, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const lines = [
    '# `@rtserve/client` API reference',
    '',
    "Generated from the package's declarations by `npm run docs:client` (scripts/client-api/render.ts); do not edit.",
    'The guide is [client-sdk.md](client-sdk.md).',
    '',
  ];
  for (const [entry, file] of ENTRIES) {
    const source = program.getSourceFile(join(root, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`no module for ${file}`);
    lines.push(`## \`${entry}\``, '');
    const exports = checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of exports) lines.push(...renderExport(e.name, e, checker));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
