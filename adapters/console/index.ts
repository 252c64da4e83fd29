/** The console adapter's public surface: the composition root and the `render` CLI import from here. */
export { CONSOLE_PACING, type ConsoleAdapterOptions, createConsoleAdapter } from './console-adapter.js';
export { commandText, PROMPT, PROMPT_HELP_FOOTER } from './console-prompt.js';
export { type ConsoleScreen, createConsoleScreen } from './console-screen.js';
export {
  isForegroundTerminal,
  isInteractiveTerminal,
  type JobControl,
  processJobControl,
} from './job-control.js';
export {
  CONSOLE_BODY_MAX,
  type ConsoleRenderOptions,
  renderConsoleMessage,
} from './render-console-message.js';
export { renderConsoleReply } from './render-console-reply.js';
export { oneLine, stripControls } from './terminal-text.js';
