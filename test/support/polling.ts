/**
 * Polls until `check` holds, or fails naming `what`. Cheap in-process checks poll every 10 ms;
 * checks that spawn a process or make a request each time (a tmux screen capture, /healthz)
 * pass a gentler `pollMs`, so waiting does not load the machine the bot under test runs on.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
  pollMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, pollMs));
  }
}
