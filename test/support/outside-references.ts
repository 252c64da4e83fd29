import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A place in a source file that points at a file outside the repository. */
export interface OutsideReference {
  /** Path relative to the repository root. */
  file: string;
  line: number;
  /** The literal as written. */
  text: string;
  /** Where it leads. */
  target: string;
}

/**
 * Absolute paths that belong to one machine or one user (a checkout's neighbours, a home folder).
 * System locations such as /tmp, /dev or /proc are not the repository's files and are allowed.
 */
const MACHINE_PATH = /^(?:file:\/\/)?\/(?:work|home|Users|root|mnt|srv|opt|workspace)(?:\/|$)/;
/** The project's read-only reference folder, however it is reached. */
const REFERENCE_FOLDER = /(?:^|[/\\])shared[/\\]reference(?:[/\\]|$)/;

const CODE_FILE = /\.(?:[cm]?ts|[cm]?js)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.git', '.node']);

function isInside(root: string, target: string): boolean {
  const path = relative(root, target);
  return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path));
}

function isDirnameOfModule(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === '__dirname';
  return ts.isPropertyAccessExpression(node) && node.getText() === 'import.meta.dirname';
}

function literalText(node: ts.Node): string | undefined {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

/**
 * Finds every literal in `source` (the text of `file`, a path inside `root`) that leads outside
 * `root`: a relative path or URL (`'../..'`, `new URL('../../x', import.meta.url)`), resolved
 * against the file's own folder as `import`, `new URL(…, import.meta.url)` and
 * `join(import.meta.dirname, …)` resolve it; `join`/`resolve` calls on the module's folder with
 * several literal segments; an absolute path on this machine; or the project's reference folder.
 */
export function findOutsideReferences(root: string, file: string, source: string): OutsideReference[] {
  const found: OutsideReference[] = [];
  const folder = dirname(file);
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const report = (node: ts.Node, text: string, target: string) => {
    const { line } = parsed.getLineAndCharacterOfPosition(node.getStart(parsed));
    found.push({ file: relative(root, file), line: line + 1, text, target });
  };

  const visit = (node: ts.Node): void => {
    const text = literalText(node);
    if (text !== undefined) {
      if (MACHINE_PATH.test(text) || REFERENCE_FOLDER.test(text)) report(node, text, text);
      else if (/^\.\.?(?:[/\\]|$)/.test(text)) {
        const target = resolve(folder, text);
        if (!isInside(root, target)) report(node, text, target);
      }
    }
    // join(import.meta.dirname, '..', '..', 'x') and resolve(__dirname, '../..', 'x')
    if (ts.isCallExpression(node) && node.arguments.length > 1) {
      const [base, ...rest] = node.arguments;
      const segments = rest.map(literalText);
      const callee = node.expression.getText(parsed);
      if (
        base &&
        /(?:^|\.)(?:join|resolve)$/.test(callee) &&
        isDirnameOfModule(base) &&
        segments.every((s) => s !== undefined)
      ) {
        const target = join(folder, ...(segments as string[]));
        if (!isInside(root, target)) report(node, node.getText(parsed), target);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return found;
}

/** The code the suite and the package run: src, adapters, scripts, test (fakes, support, fixtures), root config files. */
export function codeFilesToCheck(root: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (CODE_FILE.test(entry.name)) files.push(path);
    }
  };
  for (const folder of ['src', 'adapters', 'scripts', 'test']) {
    if (existsSync(join(root, folder))) walk(join(root, folder));
  }
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isFile() && CODE_FILE.test(entry.name)) files.push(join(root, entry.name));
  }
  return files.sort();
}
