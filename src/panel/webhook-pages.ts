import type { Express, Request, RequestHandler, Response } from 'express';
import { BotError, messageOf } from '../errors.js';
import type { Access } from './access.js';
import type { PageRenderer } from './pages.js';
import type { PanelDeps, PanelWebhooks } from './panel-deps.js';

const TRAIL = [{ label: 'Overview', href: '/' }, { label: 'Webhooks' }];
/** A SUBSCRIPTIONS route per line: more is a mistake, not a feed. */
const MAX_ROUTES = 20;

const field = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
};

const nameOf = (req: Request): string => {
  const name = req.params['name'];
  return typeof name === 'string' ? name : '';
};

/**
 * The bot's webhook destinations (issue 30) in the panel: listed, added (a URL and its routes),
 * tested and removed as `directory-bot webhook` does it, by operators only — a webhook belongs to
 * no workspace whose admins could be asked, and its URL is a credential. The URL is taken once, in
 * a password field, stored sealed, and never shown again: pages show it masked.
 */
export function webhookPages(
  app: Express,
  deps: PanelDeps,
  access: Access,
  pages: PageRenderer,
  csrf: RequestHandler,
): void {
  const { webhooks } = deps;
  if (webhooks === undefined) return;

  /** The webhooks, or a refusal page when the viewer is not an operator. */
  const operatorOnly = (req: Request, res: Response): PanelWebhooks | undefined => {
    const user = req.session.user;
    if (user !== undefined && access.isOperator(user)) return webhooks;
    res
      .status(403)
      .type('html')
      .send(
        pages.message(res, {
          title: 'Not allowed',
          text: "Webhooks are managed by the bot's operators (PANEL_OPERATOR_IDS): ask one of them.",
        }),
      );
    return undefined;
  };

  /**
   * Runs a change and shows its answer on the list. A refusal (a BotError, in the command's words)
   * is answered on the page itself with 400, nothing changed; anything else is a failure.
   */
  const change = async (req: Request, res: Response, admin: PanelWebhooks, work: () => Promise<string>) => {
    let text: string;
    try {
      text = await work();
    } catch (error) {
      if (!(error instanceof BotError) || error.code === 'internal') throw error;
      req.session.notice = { text: messageOf(error), refused: true };
      return res
        .status(400)
        .type('html')
        .send(await listPage(req, admin));
    }
    req.session.notice = { text, refused: false };
    res.redirect(303, '/webhooks');
  };

  const listPage = async (req: Request, admin: PanelWebhooks) =>
    pages.page(req, 'webhooks', { title: 'Webhooks', trail: TRAIL }, { webhooks: await admin.list() });

  app.get('/webhooks', async (req, res) => {
    const admin = operatorOnly(req, res);
    if (admin === undefined) return;
    res.type('html').send(await listPage(req, admin));
  });

  app.post('/webhooks', csrf, async (req, res) => {
    const admin = operatorOnly(req, res);
    if (admin === undefined) return;
    const name = field(req, 'name');
    const url = field(req, 'url');
    const secret = field(req, 'secret');
    const routes = field(req, 'routes')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    await change(req, res, admin, async () => {
      if (routes.length > MAX_ROUTES)
        throw new BotError('command_usage', `at most ${MAX_ROUTES} routes at once`);
      const user = req.session.user;
      const added = await admin.add({
        name,
        ...(url === '' ? {} : { url }),
        ...(secret === '' ? {} : { secret }),
        routes,
        by: user === undefined ? 'panel' : `${user.platform}:${user.userId}`,
      });
      const count = added.subscriptions.length;
      return `${added.stored ? `Stored the webhook "${name}"` : `The webhook "${name}"`}: ${count} subscription${count === 1 ? '' : 's'} added${count === 0 ? '' : ` (${added.subscriptions.map((s) => s.id).join(', ')})`}.`;
    });
  });

  app.post('/webhooks/:name/test', csrf, async (req, res) => {
    const admin = operatorOnly(req, res);
    if (admin === undefined) return;
    const name = nameOf(req);
    await change(req, res, admin, async () => {
      const outcome = await admin.test(name);
      if (outcome.status === 'delivered') return `Delivered a test message to "${name}".`;
      throw new BotError(
        'command_usage',
        `The test message to "${name}" was ${outcome.status} (${outcome.code}): ${outcome.reason}`,
      );
    });
  });

  app.post('/webhooks/:name/remove', csrf, async (req, res) => {
    const admin = operatorOnly(req, res);
    if (admin === undefined) return;
    const name = nameOf(req);
    await change(req, res, admin, async () => {
      const removed = await admin.remove(name);
      const count = removed.subscriptions.length;
      return `Removed the webhook "${name}" and its ${count} subscription${count === 1 ? '' : 's'}.`;
    });
  });
}
