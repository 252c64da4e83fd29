import { readFileSync } from 'node:fs';

function readVersion(): string {
  // Works from src/ (tsx) and dist/src/ (built): package.json is found by walking up.
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'directory-bot' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const BOT_VERSION = readVersion();
export const USER_AGENT = `directory-bot/${BOT_VERSION} (+https://github.com/directory-bot/directory-bot; node ${process.versions.node})`;
