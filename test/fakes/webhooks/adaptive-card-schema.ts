import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * The Adaptive Card schema Microsoft publishes with its card designer (npm adaptivecards-designer,
 * vendored in test/fixtures/platform/adaptive-card-schema with its licence): a draft-06 JSON Schema.
 */
const SCHEMA_URL = new URL(
  '../../fixtures/platform/adaptive-card-schema/adaptive-card.schema.json',
  import.meta.url,
);

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    const {
      'x-vendored': _note,
      id,
      ...schema
    } = JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as Record<string, unknown>;
    // The schema names itself with draft-04's `id`, which Ajv reads only as draft-06's `$id`.
    schema['$id'] = id;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const draft06 = createRequire(import.meta.url).resolve('ajv/dist/refs/json-schema-draft-06.json');
    ajv.addMetaSchema(JSON.parse(readFileSync(draft06, 'utf8')) as object);
    compiled = ajv.compile(schema);
  }
  return compiled;
}

/** Problems of `card` against the Adaptive Card schema; empty when it is valid. */
export function adaptiveCardProblems(card: unknown): string[] {
  const validate = validator();
  if (validate(card)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
