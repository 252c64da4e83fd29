import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in this package's package.json: the nearest one above this module, as Node itself
 * finds a module's package. That is the same file from src/ (tsx) and from dist/src/ (built), and
 * the search never goes past the package's own root.
 */
function readVersion(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) return '0.0.0';
    folder = parent;
  }
  try {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const BOT_VERSION = readVersion();
export const USER_AGENT = `directory-bot/${BOT_VERSION} (+https://github.com/directory-bot/directory-bot; node ${process.versions.node})`;
