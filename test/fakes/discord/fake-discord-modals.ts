import { REQUEST_SCHEMAS, validateAgainstSpec } from './discord-spec.js';

/** Documented modal limits the OpenAPI schema leaves looser (it allows 40 rows of newer components). */
const MODAL = { rows: 5, title: 45, label: 45, customId: 100, placeholder: 100, value: 4000 } as const;
const TEXT_INPUT = 4;
const ACTION_ROW = 1;

interface TextInput {
  type?: number;
  custom_id?: string;
  label?: string;
  placeholder?: string;
  max_length?: number;
  required?: boolean;
}

interface ModalData {
  custom_id?: string;
  title?: string;
  components?: { type?: number; components?: TextInput[] }[];
}

/**
 * What Discord would refuse in a MODAL (type 9) interaction response: the spec's schema, then
 * the documented limits (at most 5 action rows of one text input each, title and labels up to
 * 45 characters, custom ids up to 100 and unique). Empty when the modal is valid.
 */
export function modalProblems(callback: unknown): string[] {
  const problems = validateAgainstSpec(REQUEST_SCHEMAS.interactionCallback, callback).map(
    (p) => `modal: ${p}`,
  );
  const body = callback as { type?: number; data?: ModalData };
  if (body.type !== 9) return [...problems, 'modal: callback type is not 9 (MODAL)'];
  const data = body.data ?? {};
  const tooLong = (value: string | undefined, max: number, what: string) => {
    if (value === undefined || value.length < 1 || value.length > max)
      problems.push(`modal: ${what} must be 1-${max} characters`);
  };
  tooLong(data.custom_id, MODAL.customId, 'custom_id');
  tooLong(data.title, MODAL.title, 'title');
  const rows = data.components ?? [];
  if (rows.length < 1 || rows.length > MODAL.rows) problems.push(`modal: must have 1-${MODAL.rows} rows`);
  const ids = new Set<string>();
  rows.forEach((row, i) => {
    const inputs = row.components ?? [];
    if (row.type !== ACTION_ROW || inputs.length !== 1) {
      problems.push(`modal: row ${i} must be an action row holding one text input`);
      return;
    }
    const input = inputs[0] as TextInput;
    if (input.type !== TEXT_INPUT) problems.push(`modal: row ${i} holds a component of type ${input.type}`);
    tooLong(input.custom_id, MODAL.customId, `row ${i} custom_id`);
    tooLong(input.label, MODAL.label, `row ${i} label`);
    if (input.placeholder !== undefined)
      tooLong(input.placeholder, MODAL.placeholder, `row ${i} placeholder`);
    if (input.custom_id !== undefined) {
      if (ids.has(input.custom_id)) problems.push(`modal: custom_id ${input.custom_id} is not unique`);
      ids.add(input.custom_id);
    }
  });
  return problems;
}

/**
 * The MODAL_SUBMIT (type 5) interaction Discord sends when someone submits `modal`: the
 * interaction it answered, with the modal's custom id and each text input's value (`values` by
 * input custom id; inputs left out arrive empty, as Discord sends them).
 */
export function modalSubmitInteraction(
  base: Record<string, unknown>,
  modal: ModalData,
  values: Record<string, string>,
): Record<string, unknown> {
  return {
    ...base,
    type: 5,
    data: {
      custom_id: modal.custom_id,
      components: (modal.components ?? []).map((row) => ({
        type: ACTION_ROW,
        components: (row.components ?? []).map((input) => ({
          type: TEXT_INPUT,
          custom_id: input.custom_id,
          value: values[input.custom_id ?? ''] ?? '',
        })),
      })),
    },
  };
}
