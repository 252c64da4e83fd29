/** `14:05 UTC`, or `2025-01-31 14:05 UTC` when not today. */
export function formatUtc(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)} UTC`;
}

export { formatDuration } from '../schedule/index.js';
