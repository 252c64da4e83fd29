import type { Request, Response } from 'express';
import type { Subscription } from '../subscriptions/index.js';
import type { Access, PanelUser, VisibleChannel } from './access.js';
import type { PageRenderer } from './pages.js';
import type { PanelDeps } from './panel-deps.js';

/**
 * The channel as commands name it: the console's channels name no workspace (its prompt sends none),
 * so its history is kept and read under none.
 */
export const commandPlace = (c: VisibleChannel) => ({
  platform: c.platform,
  channelId: c.channelId,
  ...(c.platform === 'console' ? {} : { workspaceId: c.workspaceId }),
});

export const channelPath = (c: { platform: string; channelId: string }) =>
  `/channels/${encodeURIComponent(c.platform)}/${encodeURIComponent(c.channelId)}`;

/**
 * What every signed-in page starts from: who is asking, the channel of the path when they may see it
 * (a 404 otherwise, the same for a channel that does not exist and one of another workspace), its
 * subscription of the path, and the breadcrumbs.
 */
export function channelContext(deps: PanelDeps, access: Access, pages: PageRenderer) {
  const user = (req: Request): PanelUser => {
    const found = req.session.user;
    if (found === undefined) throw new Error('signed-in route without a user');
    return found;
  };

  const notFound = (res: Response) =>
    res
      .status(404)
      .type('html')
      .send(
        pages.message(res, {
          title: 'Not found',
          text: 'There is no such channel or subscription among the workspaces you can see.',
        }),
      );

  /** The channel of the request's path, when the viewer may see it; otherwise a 404 is sent. */
  async function channelOf(req: Request, res: Response): Promise<VisibleChannel | undefined> {
    const index = await deps.subscriptions.index();
    const found = await access.channel(
      user(req),
      index,
      String(req.params['platform']),
      String(req.params['channelId']),
    );
    if (found === undefined) notFound(res);
    return found;
  }

  const trail = (c: VisibleChannel, ...more: { label: string; href?: string }[]) => [
    { label: 'Overview', href: '/' },
    { label: `${c.workspaceName} · ${c.channelId}`, href: channelPath(c) },
    ...more,
  ];

  async function subscriptionRow(s: Subscription) {
    return {
      id: s.id,
      summary: await deps.describe(s),
      paused: s.paused ? deps.describePause(s) : undefined,
    };
  }

  /** The subscription of the request's path in `where`, or a 404 is sent. */
  const subscriptionOf = (req: Request, res: Response, where: VisibleChannel) => {
    const found = where.subscriptions.find((s) => s.id === req.params['id']);
    if (found === undefined) notFound(res);
    return found;
  };

  return { user, notFound, channelOf, trail, subscriptionRow, subscriptionOf };
}

export type ChannelContext = ReturnType<typeof channelContext>;
