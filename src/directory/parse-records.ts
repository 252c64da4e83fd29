import type { z } from 'zod';
import type { DirectoryEventSink } from './events.js';

/** Result of parsing a list of raw records one by one. */
export interface ParsedRecords<T> {
  items: T[];
  skipped: number;
}

/**
 * Parses each raw record with `safeParse`: a record that fails is left out, reported as a
 * `record-skipped` event with its id and the first failing path, and counted, so one bad
 * record never costs the rest of the page.
 */
export function parseRecords<T>(
  raw: readonly unknown[],
  schema: z.ZodType<T>,
  resource: string,
  onEvent: DirectoryEventSink,
): ParsedRecords<T> {
  const items: T[] = [];
  let skipped = 0;
  for (const record of raw) {
    const parsed = schema.safeParse(record);
    if (parsed.success) {
      items.push(parsed.data);
      continue;
    }
    skipped += 1;
    const issue = parsed.error.issues[0];
    onEvent({
      type: 'record-skipped',
      resource,
      id: readId(record),
      path: issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(record)',
      issue: issue?.message ?? 'invalid record',
    });
  }
  return { items, skipped };
}

/** The record's id for the skip report, when it has a printable one. */
function readId(record: unknown): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const id = (record as { id?: unknown }).id;
  if (typeof id === 'string' && id !== '') return id.slice(0, 64);
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}
