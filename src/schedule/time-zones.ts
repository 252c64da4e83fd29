/**
 * IANA time zone names as people type them (`/directory timezone europe/berlin`, `--tz`,
 * `tz=` in SUBSCRIPTIONS): matched without regard to case, stored in Intl's spelling, and a
 * typo answered with the closest real name rather than a bare "unknown".
 */

export type ZoneCheck = { ok: true; zone: string } | { ok: false; problem: string };

/**
 * Zones offered as suggestions: what this Node's Intl lists (canonical names only), plus UTC and
 * the fixed-offset Etc zones it leaves out of that list but accepts.
 */
function knownZones(): readonly string[] {
  const etc = ['UTC', 'Etc/UTC', 'Etc/GMT'];
  for (let hours = 1; hours <= 14; hours += 1) {
    etc.push(`Etc/GMT-${hours}`);
    if (hours <= 12) etc.push(`Etc/GMT+${hours}`);
  }
  return [...Intl.supportedValuesOf('timeZone'), ...etc];
}

let zones: readonly string[] | undefined;
const allZones = () => (zones ??= knownZones());

/** How a zone name is compared: lower case, spaces as underscores ("new york" → "new_york"). */
const comparable = (name: string) => name.trim().toLowerCase().replace(/\s+/g, '_');

/**
 * The zone `input` names, in Intl's own spelling (`europe/berlin` → `Europe/Berlin`), or a
 * problem naming the closest zones. Offsets (`+02:00`) and abbreviations Intl does not know
 * (`CEST`) are refused: only a named zone knows its DST rules.
 */
export function checkTimeZone(input: string): ZoneCheck {
  const name = input.trim();
  if (name === '') return { ok: false, problem: 'expects an IANA time zone name like Europe/Berlin' };
  if (/^[A-Za-z][A-Za-z0-9_+\-/ ]{0,63}$/.test(name)) {
    try {
      const zone = new Intl.DateTimeFormat('en-US', { timeZone: name.replace(/\s+/g, '_') }).resolvedOptions()
        .timeZone;
      return { ok: true, zone };
    } catch {
      // Not a zone: suggest one below.
    }
  }
  const suggestions = suggestTimeZones(name);
  const hint = suggestions.length === 0 ? '' : ` Did you mean ${suggestions.join(' or ')}?`;
  return {
    ok: false,
    problem: `"${name.slice(0, 40)}" is not an IANA time zone (like Europe/Berlin, America/New_York or UTC).${hint}`,
  };
}

/** At most three real zone names close to `input`: same city, or a few letters off. */
export function suggestTimeZones(input: string): string[] {
  const wanted = comparable(input);
  if (wanted === '') return [];
  const all = allZones();
  // "Berlin", "new york": the city part alone.
  const byCity = all.filter((zone) => comparable(zone.split('/').at(-1) ?? '') === wanted);
  if (byCity.length > 0) return byCity.slice(0, 3);
  const scored = all
    .map((zone) => {
      const whole = distance(wanted, comparable(zone));
      const city = distance(wanted, comparable(zone.split('/').at(-1) ?? ''));
      return { zone, score: Math.min(whole, city + 1) };
    })
    .sort((a, b) => a.score - b.score || a.zone.localeCompare(b.zone));
  const best = scored[0]?.score ?? Number.POSITIVE_INFINITY;
  // A typo is a few letters off; a third of the name is as far as a guess stays useful.
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  if (best > allowed) return [];
  return scored
    .filter((s) => s.score === best)
    .slice(0, 3)
    .map((s) => s.zone);
}

/** Edit distance with adjacent swaps (Damerau–Levenshtein, optimal string alignment). */
function distance(a: string, b: string): number {
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (previous2[j - 2] ?? 0) + 1);
      row.push(best);
    }
    previous2 = previous;
    previous = row;
  }
  return previous[b.length] ?? 0;
}
