import type { FormSubmission } from '../ports/index.js';
import { scheduleOptionValues } from '../schedule/index.js';
import type { Subscription } from '../subscriptions/index.js';

/**
 * The `subscribe` option values that would make `subscription` as it is: what an edit form starts
 * from, so submitting it unchanged subscribes to the same thing. Option names are the command's.
 */
export function subscribeValues(subscription: Subscription): FormSubmission['values'] {
  const { filters, threading } = subscription;
  const values: Record<string, string | boolean> = { feed: subscription.feed };
  if (filters.post !== undefined) values['post'] = filters.post;
  if (filters.user !== undefined) values['user'] = filters.user;
  if (filters.keywords !== undefined && filters.keywords.length > 0)
    values['keyword'] = filters.keywords.join(', ');
  if (filters.exclude !== undefined && filters.exclude.length > 0)
    values['exclude'] = filters.exclude.join(', ');
  if (filters.video === true) values['video'] = true;
  if (filters.minVotes !== undefined) values['min-votes'] = String(filters.minVotes);
  if (filters.remindMinutes !== undefined) values['remind'] = String(filters.remindMinutes);
  if (subscription.format !== undefined) values['format'] = subscription.format;
  if (subscription.onRemoval !== undefined) values['on-removal'] = subscription.onRemoval;
  if (threading?.off === true) values['threads'] = 'off';
  if (threading?.comments === true) values['thread-comments'] = true;
  if (threading?.broadcast === true) values['broadcast'] = true;
  for (const [name, value] of scheduleOptionValues(subscription.schedule ?? {})) {
    values[name] = value === 'true' ? true : value;
  }
  return values;
}
