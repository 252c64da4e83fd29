import type { CommandReply } from '../../src/ports/index.js';
import {
  type ConsoleRenderOptions,
  INFO_WRAP,
  renderConsoleMessage,
  renderWidth,
} from './render-console-message.js';
import { stripControls, wrap } from './terminal-text.js';

/**
 * Renders a command reply for the terminal: the lead line (marked ✗, with the usage when the
 * command failed), then each result message, separated by blank lines. The error's code is
 * for logs and machines; the person reads the sentence.
 */
export function renderConsoleReply(reply: CommandReply, options: ConsoleRenderOptions = {}): string {
  const parts: string[] = [];
  const width = renderWidth(options);
  const lead = stripControls(reply.text).trim();
  if (reply.error !== undefined) {
    parts.push(`✗ ${lead || 'The command failed.'}`);
    if (reply.error.usage !== undefined && reply.error.usage.trim() !== '') {
      // Wrapped at the terminal's width, never mid-word: the terminal itself would cut
      // `full|co` / `mpact`.
      const usage = `Usage: ${stripControls(reply.error.usage).replace(/\s+/g, ' ').trim()}`;
      parts.push(wrap(usage, width, { ...INFO_WRAP, hang: 4 }).join('\n'));
    }
  } else if (lead !== '') {
    parts.push(lead);
  }
  const messages = reply.messages.map((message) => renderConsoleMessage(message, options));
  if (messages.length === 0) return parts.join('\n');
  return [parts.join('\n'), ...messages].filter((part) => part !== '').join('\n\n');
}
