/** Every item accounted for: why an item was, or was not, posted in a channel (`/directory why`, the control panel). */
export {
  type ExplainDeps,
  type ExplainQuery,
  explainItem,
  type FeedPolling,
  type ItemExplanation,
  type SubscriptionVerdict,
  type Verdict,
} from './explain-item.js';
export type { ItemLookupDeps } from './item-lookup.js';
export { type DirectoryHosts, ITEM_FORMS, type ItemRef, parseItemRef } from './item-ref.js';
