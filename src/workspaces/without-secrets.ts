/** What an export shows instead of a secret. */
export const SECRET_PLACEHOLDER = '[secret: not exported]';

/** Field names that hold a secret, whatever the object (Slack: bot/user token, refresh token). */
const SECRET_FIELD = /token|secret|password|cipher|signature/i;
/** A Slack token or incoming-webhook URL in any field, in case a new field carries one. */
const SECRET_VALUE = /^(xox[a-z]-|xapp-|https:\/\/hooks\.slack\.com\/)/;

/**
 * A copy of `value` fit to print: every secret replaced by SECRET_PLACEHOLDER, including an
 * incoming webhook's URL (anyone holding it can post to the channel). Ids, names, scopes and
 * dates stay, since a team reviewing its data needs them.
 */
export function withoutSecrets(value: unknown, field = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item));
  if (value !== null && typeof value === 'object') {
    const isWebhook = /webhook/i.test(field);
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_FIELD.test(key) || (isWebhook && key === 'url')
          ? SECRET_PLACEHOLDER
          : withoutSecrets(inner, key),
      ]),
    );
  }
  if (typeof value === 'string' && SECRET_VALUE.test(value)) return SECRET_PLACEHOLDER;
  return value;
}
