import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Discord's official OpenAPI 3.1 spec (v10), vendored in the repository and trimmed to the component
 * schemas `REQUEST_SCHEMAS` reach (see test/fixtures/platform/README.md).
 */
export const DISCORD_SPEC_URL = new URL(
  '../../fixtures/platform/discord-api-spec/discord_openapi.trimmed.json',
  import.meta.url,
);

let ajv: Ajv2020 | undefined;
const cache = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (!ajv) {
    const spec = JSON.parse(readFileSync(DISCORD_SPEC_URL, 'utf8')) as { components: unknown };
    // strict: false — the spec carries OpenAPI/x-discord keywords and custom formats (snowflake, nonce).
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'discord', components: spec.components });
  }
  return ajv;
}

/**
 * Validates `value` against a schema of the spec's `components/schemas` (`array:Name` for a list of
 * them), or against an inline
 * schema whose `$ref`s point into them (written as `discord#/components/schemas/…`).
 * Returns readable error lines; empty means valid.
 */
export function validateAgainstSpec(schema: string | object, value: unknown): string[] {
  const key = typeof schema === 'string' ? schema : JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    const compiled =
      typeof schema !== 'string'
        ? schema
        : schema.startsWith('array:')
          ? { type: 'array', items: ref(schema.slice('array:'.length)) }
          : ref(schema);
    validate = instance().compile(compiled);
    cache.set(key, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

const SCHEMA_REF = 'discord#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` });

/** Request-body schemas of the operations the bot calls, as the spec's paths declare them. */
export const REQUEST_SCHEMAS = {
  createMessage: 'MessageCreateRequest',
  /** `PATCH /channels/{id}/messages/{id}`: edit a message the bot posted. */
  editMessage: 'MessageEditRequestPartial',
  /** `POST /users/@me/channels`: open a DM with `recipient_id`. */
  createDm: 'CreatePrivateChannelRequest',
  /** `POST /channels/{id}/messages/{id}/threads`: a public thread from a message. */
  startThreadFromMessage: 'CreateTextThreadWithMessageRequest',
  /** `POST /channels/{id}/threads` in a forum channel: a forum post with its first message. */
  startForumPost: 'CreateForumThreadRequest',
  /** `PATCH /channels/{id}` on a thread (unarchive). */
  updateThread: 'UpdateThreadRequestPartial',
  interactionCallback: {
    anyOf: [
      ref('ApplicationCommandAutocompleteCallbackRequest'),
      ref('CreateMessageInteractionCallbackRequest'),
      ref('ModalInteractionCallbackRequest'),
      ref('PongInteractionCallbackRequest'),
      ref('UpdateMessageInteractionCallbackRequest'),
    ],
  },
  webhookEdit: 'IncomingWebhookUpdateRequestPartial',
  webhookFollowUp: 'IncomingWebhookRequestPartial',
  bulkCommands: { type: 'array', items: ref('ApplicationCommandUpdateRequest'), maxItems: 130 },
} as const;

/**
 * Response schemas of the routes the control panel's sign-in and permission checks read (the fake
 * checks its own answers against them, so the bot is tested against what Discord really sends).
 */
export const RESPONSE_SCHEMAS = {
  /** `GET /users/@me` with a user's OAuth2 token (scope identify). */
  user: 'UserPIIResponse',
  /** `GET /users/@me/guilds`, for a user (scope guilds) or the bot. */
  myGuild: 'MyGuildResponse',
  /** `GET /guilds/{id}/roles`. */
  role: 'GuildRoleResponse',
  /** `GET /guilds/{id}/members/{user.id}`. */
  member: 'GuildMemberResponse',
  /** `GET /channels/{id}` of a server's channel. */
  channel: 'GuildChannelResponse',
} as const;

/**
 * The docs define `default_member_permissions` as a string (a permission bit set, as discord.js
 * sends it); the OpenAPI spec types it as an integer. Discord accepts the documented string, so
 * convert it before checking the rest of a command against the spec.
 */
export function commandsInSpecForm(body: unknown): unknown {
  if (!Array.isArray(body)) return body;
  return body.map((command: Record<string, unknown>) => {
    const permissions = command['default_member_permissions'];
    return typeof permissions === 'string' && /^\d+$/.test(permissions)
      ? { ...command, default_member_permissions: Number(permissions) }
      : command;
  });
}

/** The component schemas `REQUEST_SCHEMAS` and `RESPONSE_SCHEMAS` name or refer to: what the vendored spec must keep. */
export function requestSchemaNames(): string[] {
  const names = new Set<string>();
  const collectRefs = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collectRefs);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
          names.add(value.slice(SCHEMA_REF.length));
        } else collectRefs(value);
      }
    }
  };
  for (const schema of Object.values(RESPONSE_SCHEMAS)) names.add(schema);
  for (const schema of Object.values(REQUEST_SCHEMAS)) {
    if (typeof schema === 'string') names.add(schema);
    else collectRefs(schema);
  }
  return [...names];
}
