import type { ItemKind } from '../ports/index.js';

/** One colour per kind, so a reader can tell a comment from a live event at a glance. */
export const KIND_COLORS: Readonly<Record<ItemKind, string>> = {
  post: '#da552f',
  comment: '#4b86d4',
  collection: '#8e5bd6',
  live: '#e0245e',
  'live-reminder': '#f5a623',
  notification: '#6b7785',
  user: '#2e9e6b',
  info: '#95a5a6',
  digest: '#3d5a80',
};

/**
 * The names the directory uses for collection colours (the emulator draws from the first
 * seven), plus a few common CSS names a curator might pick.
 */
const NAMED_COLORS: Readonly<Record<string, string>> = {
  blue: '#3b82f6',
  green: '#22c55e',
  orange: '#f97316',
  purple: '#a855f7',
  red: '#ef4444',
  teal: '#14b8a6',
  yellow: '#eab308',
  pink: '#ec4899',
  indigo: '#6366f1',
  gray: '#6b7280',
  grey: '#6b7280',
  black: '#111827',
  white: '#f9fafb',
  brown: '#92400e',
  cyan: '#06b6d4',
};

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * A record's own colour as `#rrggbb`: a valid hex colour as is (lower-cased), a known name
 * mapped to hex, anything else undefined so the caller falls back to the kind's colour.
 */
export function resolveColor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim().toLowerCase();
  if (HEX.test(trimmed)) return trimmed;
  return Object.hasOwn(NAMED_COLORS, trimmed) ? NAMED_COLORS[trimmed] : undefined;
}
