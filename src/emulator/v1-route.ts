import type { Store } from './store.js';
import type { V1Params } from './v1-params.js';
import type { RenderContext } from './v1-serializers.js';

/** What a V1 handler sees: validated parameters, the data, and how to render it. */
export interface V1Request {
  params: V1Params;
  store: Store;
  ctx: RenderContext;
}

/** A V1 handler's answer; the server adds headers, the ETag of the given strength, and 304s. */
export interface V1Result {
  body: Record<string, unknown>;
  etag: 'strong' | 'weak';
}

export type V1Handler = (request: V1Request) => V1Result;
