import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserServer, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); playwright-core never downloads one. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Whether the browser tests can run here. Without Chromium they are skipped with the reason
 * printed, except under CI=true, where a missing browser is a failure (CI installs it).
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const reason = `${CHROMIUM} is missing (apt-get install -y chromium): the control panel's browser tests cannot run`;
  if (process.env['CI'] === 'true') throw new Error(reason);
  console.warn(`SKIPPED: ${reason}`);
  return false;
}

export interface RunningChromium {
  browser: Browser;
  /** Closes the browser and waits until its process has exited; rejects if it has not. */
  close(): Promise<void>;
}

/**
 * One headless Chromium for a test file: launched as a server so its process is known, with a
 * fresh profile (Playwright's own temporary user-data-dir) and nothing that reaches the network.
 */
export async function launchChromium(): Promise<RunningChromium> {
  const server: BrowserServer = await chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  const browser = await chromium.connect(server.wsEndpoint());
  const child = server.process();
  return {
    browser,
    async close() {
      await browser.close();
      await server.close();
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => child.once('exit', () => resolve()));
      }
      if (child.pid !== undefined) {
        let alive = true;
        try {
          process.kill(child.pid, 0);
        } catch {
          alive = false;
        }
        if (alive) throw new Error(`chromium ${child.pid} is still running after close`);
      }
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe-core finding, as the tests report it. */
export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules
 * and best practices). Injected through the DevTools protocol, so the page's own CSP, which allows
 * no script at all, stays in force.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(axeSource);
  const findings = await page.evaluate(async () => {
    // Runs in the page (no DOM types here): axe-core as injected above.
    type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const page = globalThis as unknown as {
      axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> };
      document: unknown;
    };
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}
