/**
 * Message component rules the OpenAPI spec does not carry (it checks 5 buttons per row, custom_id
 * ≤ 100 and label ≤ 80): at most 5 action rows, a link button has a url and no custom_id, every
 * other button a custom_id and no url, and custom_ids are unique within a message
 * (developers/components/reference.mdx). Discord answers 50035 for each.
 */
export function componentProblems(body: { components?: unknown }): string[] {
  const rows = body.components;
  if (rows === undefined || rows === null) return [];
  if (!Array.isArray(rows)) return ['components is not an array'];
  const problems: string[] = [];
  if (rows.length > 5) problems.push(`${rows.length} action rows (at most 5)`);
  const seen = new Set<string>();
  for (const row of rows as { type?: number; components?: Record<string, unknown>[] }[]) {
    for (const button of row.components ?? []) {
      if (button['type'] !== 2) continue;
      const customId = button['custom_id'];
      if (button['style'] === 5) {
        if (typeof button['url'] !== 'string') problems.push('link button without a url');
        if (customId !== undefined) problems.push('link button with a custom_id');
        continue;
      }
      if (typeof customId !== 'string' || customId === '') {
        problems.push('button without a custom_id');
        continue;
      }
      if (button['url'] !== undefined) problems.push(`button ${customId} with a url`);
      if (seen.has(customId)) problems.push(`duplicate custom_id ${customId}`);
      seen.add(customId);
    }
  }
  return problems;
}
