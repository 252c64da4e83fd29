import type { V1Params } from './v1-params.js';

export const SORT_KEYS = ['id', 'created_at', 'updated_at'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const ORDERS = ['desc', 'asc'] as const;

/** Default page size of the id-paged V1 lists (the spec gives none; live's default is 20). */
export const DEFAULT_PER_PAGE = 20;

export interface Listable {
  id: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * Pages an already-filtered list the way spec 4.3/4.6 describe:
 * - with `older`/`newer`, records are first chosen by id nearest the cursor (so a client
 *   walking a cursor never skips one), and `sort_by`/`order` are applied afterwards to the
 *   chosen page — intentionally: the spec says the cursor ignores sort_by;
 * - without a cursor, `sort_by`/`order` order the whole list and `page` (from 1) offsets it.
 * Defaults: `sort_by=id`, `order=desc`, 20 per page.
 */
export function pageById<T extends Listable>(records: readonly T[], params: V1Params): T[] {
  const perPage = params.perPage(DEFAULT_PER_PAGE);
  const page = params.int('page', 1) ?? 1;
  const sortBy = params.oneOf('sort_by', SORT_KEYS) ?? 'id';
  const order = params.oneOf('order', ORDERS) ?? 'desc';
  const older = params.id('older');
  const newer = params.id('newer');
  const offset = (page - 1) * perPage;

  let chosen: T[];
  if (older !== undefined || newer !== undefined) {
    const inRange = records.filter(
      (r) => (older === undefined || r.id < older) && (newer === undefined || r.id > newer),
    );
    // Nearest the cursor first: below `older` descending, otherwise above `newer` ascending.
    const towardCursor = older !== undefined && newer === undefined ? -1 : 1;
    inRange.sort((a, b) => (a.id - b.id) * towardCursor);
    chosen = inRange.slice(offset, offset + perPage);
    return sortRecords(chosen, sortBy, order);
  }
  return sortRecords([...records], sortBy, order).slice(offset, offset + perPage);
}

function sortRecords<T extends Listable>(records: T[], sortBy: SortKey, order: 'asc' | 'desc'): T[] {
  const key = (r: T): number =>
    sortBy === 'id' ? r.id : sortBy === 'created_at' ? r.createdAt : r.updatedAt;
  const direction = order === 'asc' ? 1 : -1;
  // Ties broken by id so paging is stable.
  return records.sort((a, b) => (key(a) - key(b) || a.id - b.id) * direction);
}
