import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Reads a `.env` file when present. Values already in the real environment win, so a
 * platform's config vars always override a stray local file.
 */
export function mergeEnvFile(
  environment: Record<string, string | undefined>,
  path: string,
): Record<string, string | undefined> {
  if (!existsSync(path)) return { ...environment };
  const fromFile = parseEnv(readFileSync(path, 'utf8'));
  return { ...fromFile, ...environment };
}
