/**
 * The one terminal that log lines, feed deliveries and the `directory>` prompt share. While the
 * prompt waits for input, anything printed would land in the middle of what is being typed; so
 * the prompt is cleared first and drawn again, with the half-typed line, below the new output.
 */
export interface ConsoleScreen {
  /** Prints text above the prompt (or simply prints it when no prompt is waiting). */
  write(text: string): void;
  /** Writes as is, for the prompt's own drawing (the prompt, the echo of what is typed). */
  raw(text: string): void;
  /**
   * Called by the prompt: `line` while it waits for input on a terminal, `undefined` while it
   * does not (a command is being answered, the prompt is off).
   */
  setPromptLine(line: PromptLine | undefined): void;
}

/** How the waiting prompt takes itself off the screen and puts itself back. */
export interface PromptLine {
  clear(): void;
  redraw(): void;
}

/** A screen over `write` (default: stdout). */
export function createConsoleScreen(
  write: (text: string) => void = (text) => void process.stdout.write(text),
): ConsoleScreen {
  let prompt: PromptLine | undefined;
  return {
    write(text) {
      if (prompt === undefined) {
        write(text);
        return;
      }
      prompt.clear();
      // The prompt goes back on a line of its own, never after the last printed character.
      write(text.endsWith('\n') ? text : `${text}\n`);
      prompt.redraw();
    },
    raw: write,
    setPromptLine(line) {
      prompt = line;
    },
  };
}
