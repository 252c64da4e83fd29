import { z } from 'zod';

/** Interaction types (receiving-and-responding.mdx). */
export const InteractionKind = {
  Ping: 1,
  ApplicationCommand: 2,
  MessageComponent: 3,
  Autocomplete: 4,
  ModalSubmit: 5,
} as const;

/** Interaction callback types. */
export const CallbackType = {
  Pong: 1,
  ChannelMessage: 4,
  DeferredChannelMessage: 5,
  AutocompleteResult: 8,
  Modal: 9,
} as const;

export interface RawOption {
  name: string;
  type: number;
  value?: string | number | boolean | undefined;
  focused?: boolean | undefined;
  options?: RawOption[] | undefined;
}

const optionSchema: z.ZodType<RawOption> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.number(),
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    focused: z.boolean().optional(),
    options: z.array(optionSchema).optional(),
  }),
);

/** A submitted modal input: a text input (4) with its value, inside an action row (1) or a label (18). */
const submittedInputSchema = z.object({
  type: z.number(),
  custom_id: z.string().optional(),
  value: z.string().optional(),
});

const submittedRowSchema = z.object({
  type: z.number(),
  components: z.array(submittedInputSchema).optional(),
  component: submittedInputSchema.optional(),
});

export type SubmittedRow = z.infer<typeof submittedRowSchema>;

const userSchema = z.object({
  id: z.string(),
  username: z.string().optional(),
  global_name: z.string().nullable().optional(),
});

/**
 * The part of an interaction the adapter uses. The same shape arrives over the gateway
 * (INTERACTION_CREATE) and the HTTP endpoint, so one parser serves both; unknown fields are
 * dropped, and anything malformed is refused before it reaches the core.
 */
export const interactionSchema = z.object({
  id: z.string(),
  application_id: z.string(),
  type: z.number(),
  token: z.string(),
  guild_id: z.string().optional(),
  channel_id: z.string().optional(),
  channel: z.object({ id: z.string() }).optional(),
  member: z.object({ user: userSchema, permissions: z.string().optional() }).optional(),
  user: userSchema.optional(),
  data: z
    .object({
      name: z.string().optional(),
      options: z.array(optionSchema).optional(),
      custom_id: z.string().optional(),
      /** MODAL_SUBMIT: the modal's rows with what was entered. */
      components: z.array(submittedRowSchema).optional(),
    })
    .optional(),
});

export type RawInteraction = z.infer<typeof interactionSchema>;
