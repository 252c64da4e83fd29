/**
 * Every item accounted for: what became of an item in a channel, one verdict per subscription
 * there (`/directory why`, the control panel), from what the bot already keeps.
 */
export { explainItem } from './explain-item.js';
export type {
  ExplainDeps,
  ExplainQuery,
  ItemExplanation,
  SubscriptionVerdict,
  Verdict,
} from './item-explanation.js';
export { ITEM_NOUNS } from './item-reference.js';
