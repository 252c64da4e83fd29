import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of this package's package.json: the nearest one above this module, as Node itself
 * finds a module's package. That is the same folder from src/ (tsx) and from dist/src/ (built),
 * and the search never goes past the package's own root. Undefined when there is none.
 */
function findPackageRoot(): string | undefined {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
  return folder;
}

/** This package's root folder (where package.json is); files shipped beside the code are found from it. */
export const PACKAGE_ROOT = findPackageRoot() ?? process.cwd();

/** The version in this package's package.json. */
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const BOT_VERSION = readVersion();
export const USER_AGENT = `directory-bot/${BOT_VERSION} (+https://github.com/directory-bot/directory-bot; node ${process.versions.node})`;
