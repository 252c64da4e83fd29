import type { Express } from 'express';
import { MESSAGE_FORMATS } from '../ports/index.js';
import { destinationKey } from '../subscriptions/index.js';
import type { Access } from './access.js';
import { type ChannelContext, channelPath, commandPlace } from './channel-context.js';
import { discordPreview, slackPreview } from './message-preview.js';
import { overviewData } from './overview.js';
import type { PageRenderer } from './pages.js';
import type { PanelDeps } from './panel-deps.js';

/** Deliveries the channel page lists; the delivery log keeps about 200 per channel. */
const DELIVERIES_SHOWN = 50;

/**
 * The signed-in pages that read: the overview, each channel with its subscriptions, a
 * subscription's preview, the delivery log, the history and "why".
 */
export function channelPages(
  app: Express,
  deps: PanelDeps,
  access: Access,
  pages: PageRenderer,
  context: ChannelContext,
): void {
  const { user, channelOf, trail, subscriptionRow, subscriptionOf } = context;

  app.get('/', async (req, res) => {
    const viewer = user(req);
    const index = await deps.subscriptions.index();
    const [workspaces, channels, report, queueDepth] = await Promise.all([
      access.workspaces(viewer, index),
      access.channels(viewer, index),
      deps.status(),
      deps.queueDepth(),
    ]);
    const data = overviewData({
      now: deps.clock.now(),
      report,
      workspaces,
      channels,
      queueDepth,
      describePause: deps.describePause,
    });
    res.type('html').send(
      pages.page(
        req,
        'overview',
        { title: 'Overview' },
        {
          ...data,
          operator: access.isOperator(viewer),
          webhooks: deps.webhooks !== undefined && access.isOperator(viewer),
        },
      ),
    );
  });

  // "Open a channel by id": one without subscriptions yet, to add the first.
  app.get('/channels', (req, res) => {
    const platform = typeof req.query['platform'] === 'string' ? req.query['platform'] : '';
    const id = typeof req.query['channel'] === 'string' ? req.query['channel'].trim() : '';
    if (platform === '' || id === '') return res.redirect(303, '/');
    res.redirect(303, channelPath({ platform, channelId: id }));
  });

  app.get('/channels/:platform/:channelId', async (req, res) => {
    const where = await channelOf(req, res);
    if (where === undefined) return;
    const viewer = user(req);
    const [mayChange, rows, deliveries, held, history] = await Promise.all([
      access.mayChange(viewer, where),
      Promise.all(where.subscriptions.map(async (s) => subscriptionRow(s))),
      deps.deliveryLog?.recent(destinationKey(where.platform, where.channelId), 10) ??
        Promise.resolve(undefined),
      deps.held?.(where.platform, where.channelId) ?? Promise.resolve([]),
      deps.history.recent(commandPlace(where)),
    ]);
    res.type('html').send(
      pages.page(
        req,
        'channel',
        { title: `${where.channelId} · ${where.workspaceName}`, trail: trail(where) },
        {
          channel: where,
          path: channelPath(where),
          mayChange,
          rows,
          deliveries,
          held,
          history: history.slice(0, 5),
          whyAvailable: deps.explain !== undefined,
        },
      ),
    );
  });

  app.get('/channels/:platform/:channelId/subscriptions/:id/preview', async (req, res) => {
    const where = await channelOf(req, res);
    const s = where && subscriptionOf(req, res, where);
    if (where === undefined || s === undefined) return;
    const platforms: ('slack' | 'discord')[] =
      where.platform === 'slack' || where.platform === 'discord' ? [where.platform] : ['slack', 'discord'];
    let problem: string | undefined;
    const formats = await Promise.all(
      MESSAGE_FORMATS.map(async (format) => {
        const message = await deps.preview(s.feed, s.filters, format).catch((error: unknown) => {
          problem =
            error instanceof Error ? 'The directory did not answer; try again in a minute.' : String(error);
          return undefined;
        });
        const views = await Promise.all(
          platforms.map(async (platform) => {
            const render = deps.renderers[platform];
            if (message === undefined || render === undefined) return { platform };
            const payload = await render(message);
            return platform === 'slack'
              ? { platform, slack: slackPreview(payload) }
              : { platform, discord: discordPreview(payload) };
          }),
        );
        return { format, current: (s.format ?? 'full') === format, found: message !== undefined, views };
      }),
    );
    res.type('html').send(
      pages.page(
        req,
        'preview',
        { title: `Preview of ${s.id}`, trail: trail(where, { label: `Preview of ${s.id}` }) },
        {
          row: await subscriptionRow(s),
          formats,
          problem,
          back: channelPath(where),
        },
      ),
    );
  });

  app.get('/channels/:platform/:channelId/deliveries', async (req, res) => {
    const where = await channelOf(req, res);
    if (where === undefined) return;
    const [deliveries, held] = await Promise.all([
      deps.deliveryLog?.recent(destinationKey(where.platform, where.channelId), DELIVERIES_SHOWN) ??
        Promise.resolve(undefined),
      deps.held?.(where.platform, where.channelId) ?? Promise.resolve([]),
    ]);
    res.type('html').send(
      pages.page(
        req,
        'deliveries',
        { title: 'Delivery log', trail: trail(where, { label: 'Delivery log' }) },
        {
          deliveries,
          held,
          path: channelPath(where),
        },
      ),
    );
  });

  app.get('/channels/:platform/:channelId/history', async (req, res) => {
    const where = await channelOf(req, res);
    if (where === undefined) return;
    res.type('html').send(
      pages.page(
        req,
        'history',
        { title: 'History', trail: trail(where, { label: 'History' }) },
        {
          history: await deps.history.recent(commandPlace(where)),
        },
      ),
    );
  });

  app.get('/channels/:platform/:channelId/why', async (req, res) => {
    const where = await channelOf(req, res);
    if (where === undefined) return;
    const item = typeof req.query['item'] === 'string' ? req.query['item'].trim().slice(0, 500) : '';
    const explanation =
      item === '' || deps.explain === undefined
        ? undefined
        : await deps.explain({ platform: where.platform, channelId: where.channelId, item });
    res.type('html').send(
      pages.page(
        req,
        'why',
        { title: 'Why (not)?', trail: trail(where, { label: 'Why (not)?' }) },
        {
          item,
          explanation,
          available: deps.explain !== undefined,
          action: `${channelPath(where)}/why`,
        },
      ),
    );
  });
}
