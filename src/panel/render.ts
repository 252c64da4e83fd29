import { join } from 'node:path';
import { Eta } from 'eta';
import { formatDuration, formatUtc } from '../commands/index.js';
import { PACKAGE_ROOT } from '../version.js';

/** The panel's templates and stylesheet, read from the package (no build step: `npm start` serves them as they are). */
export const VIEWS_FOLDER = join(PACKAGE_ROOT, 'src', 'panel', 'views');
export const ASSETS_FOLDER = join(PACKAGE_ROOT, 'src', 'panel', 'assets');

/** Helpers every template gets as `it.h`: times in words, in UTC, from the panel's clock. */
export function viewHelpers(now: number) {
  return {
    now,
    /** `14:05 UTC` today, `2025-01-31 14:05 UTC` otherwise; `never` for no time. */
    at: (ms: number | undefined) => (ms === undefined ? 'never' : formatUtc(ms, now)),
    /** `3 min ago`, `in 2 h` */
    ago: (ms: number | undefined) =>
      ms === undefined
        ? ''
        : ms <= now
          ? `${formatDuration(now - ms)} ago`
          : `in ${formatDuration(ms - now)}`,
    /** The machine-readable instant for `<time datetime>`. */
    iso: (ms: number) => new Date(ms).toISOString(),
    duration: formatDuration,
    /** A path segment, encoded. */
    seg: (value: string) => encodeURIComponent(value),
  };
}

export type ViewHelpers = ReturnType<typeof viewHelpers>;

/**
 * Eta over the panel's views: every `<%= %>` is HTML-escaped (autoEscape), templates are compiled
 * once and cached. Pages are whole documents through `layout.eta`.
 */
export function createRenderer(): { page(name: string, data: object): string } {
  const eta = new Eta({ views: VIEWS_FOLDER, cache: true, autoEscape: true, autoTrim: false });
  return {
    page(name, data) {
      return eta.render(name, data);
    },
  };
}
