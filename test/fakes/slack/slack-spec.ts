import { readFileSync } from 'node:fs';

/**
 * Slack's official (2020–21) Web API OpenAPI spec, trimmed to the operations below and vendored in
 * the repository. Used for parameter names only: the spec predates granular scopes and Block Kit
 * limits (see test/fixtures/platform/README.md).
 */
export const SLACK_SPEC_URL = new URL(
  '../../fixtures/platform/slack-api-specs/slack_web_openapi_v2.trimmed.json',
  import.meta.url,
);

/** The Web API operations whose spec the fakes read; the vendored copy keeps exactly these. */
export const SLACK_SPEC_OPERATIONS = [
  '/chat.postMessage',
  '/chat.unfurl',
  '/conversations.open',
  '/views.publish',
  '/chat.postEphemeral',
  '/views.open',
  '/chat.update',
  '/chat.delete',
] as const;

export interface SpecParameter {
  name: string;
  in: string;
  required?: boolean;
}

/** The parameters the spec declares for `<operation>` (its POST, or its GET where that is all it lists). */
export function operationSpecParameters(operation: (typeof SLACK_SPEC_OPERATIONS)[number]): SpecParameter[] {
  const spec = JSON.parse(readFileSync(SLACK_SPEC_URL, 'utf8')) as {
    paths: Record<
      string,
      { post?: { parameters?: SpecParameter[] }; get?: { parameters?: SpecParameter[] } }
    >;
  };
  // The 2020 spec files views.publish under GET; the Web API takes every method as a POST.
  const parameters = spec.paths[operation]?.post?.parameters ?? spec.paths[operation]?.get?.parameters;
  if (!parameters) throw new Error(`the vendored Slack spec has no ${operation}; re-run trim.ts`);
  return parameters;
}

/** The parameter names the spec declares for `<operation>`. */
export function operationParameters(operation: (typeof SLACK_SPEC_OPERATIONS)[number]): Set<string> {
  return new Set(operationSpecParameters(operation).map((p) => p.name));
}
