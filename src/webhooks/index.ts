/** Webhook destinations the bot keeps: from the environment and sealed in the store, by name. */
export {
  type ConfiguredWebhook,
  type StoredWebhook,
  WEBHOOKS_KEY,
  type WebhookIdentity,
  WebhookRegistry,
  type WebhookRegistryOptions,
  type WebhookSummary,
} from './webhook-registry.js';
