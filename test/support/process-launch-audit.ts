import { basename } from 'node:path';
import ts from 'typescript';

/** A child process started through a wrapper instead of directly. */
export interface WrappedLaunch {
  line: number;
  /** The call as written. */
  call: string;
  why: string;
}

/**
 * Launchers that run the real program as a second process of their own. Signalling them does
 * not signal that program: `sh -c` and `npx` exit at once on SIGKILL, the bot keeps running.
 */
const WRAPPERS = new Set([
  'npx',
  'npm',
  'pnpm',
  'yarn',
  'tsx',
  'ts-node',
  'sh',
  'bash',
  'dash',
  'zsh',
  'env',
]);
const LAUNCHERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']);
/** These always go through a shell. */
const SHELL_LAUNCHERS = new Set(['exec', 'execSync']);

function launcherName(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return callee.text;
  // child_process.spawn(…), cp.exec(…); but not /re/.exec(…) or someRegex.exec(…)
  if (
    ts.isPropertyAccessExpression(callee) &&
    /^(?:child_process|childProcess|cp)$/.test(callee.expression.getText())
  ) {
    return callee.name.text;
  }
  return undefined;
}

function hasShellOption(args: readonly ts.Expression[]): boolean {
  return args.some(
    (arg) =>
      ts.isObjectLiteralExpression(arg) &&
      arg.properties.some(
        (p) =>
          ts.isPropertyAssignment(p) &&
          p.name.getText() === 'shell' &&
          p.initializer.kind !== ts.SyntaxKind.FalseKeyword,
      ),
  );
}

/**
 * Finds every child process in `source` (a test file) started through a shell or a launcher
 * that forks the real program (`spawn('npx', …)`, `spawn('sh', ['-c', …])`, `exec(…)`,
 * `{ shell: true }`): a test that signals such a process never signals the bot.
 */
export function findWrappedLaunches(file: string, source: string): WrappedLaunch[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: WrappedLaunch[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = launcherName(node.expression);
      const [command, ...rest] = node.arguments;
      let why: string | undefined;
      if (name && SHELL_LAUNCHERS.has(name)) why = `${name} runs its command through a shell`;
      else if (name && LAUNCHERS.has(name)) {
        const program =
          command && (ts.isStringLiteral(command) || ts.isNoSubstitutionTemplateLiteral(command))
            ? basename(command.text)
            : undefined;
        if (program && WRAPPERS.has(program)) why = `${program} runs the program as a process of its own`;
        else if (hasShellOption(rest)) why = 'shell: true puts a shell between the test and the program';
      }
      if (why) {
        const { line } = parsed.getLineAndCharacterOfPosition(node.getStart(parsed));
        found.push({ line: line + 1, call: node.getText(parsed).split('\n')[0] ?? '', why });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return found;
}
