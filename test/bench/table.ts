/** One line of the benchmark table: a ratio (or a count), the goal it is read against, and context. */
export interface Row {
  figure: string;
  value: number;
  goal: string;
  detail: string;
}

/** A plain-text table that reads well in a terminal and in a CI log. */
export function renderTable(title: string, rows: readonly Row[], footer: string): string {
  const cells = rows.map((row) => [
    row.figure,
    Number.isNaN(row.value) ? 'n/a' : String(row.value),
    row.goal,
    row.detail,
  ]);
  const header = ['figure', 'ratio', 'goal', 'detail'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => (i === 1 ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [title, line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line), footer].join('\n');
}
