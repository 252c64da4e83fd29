/**
 * Block Kit and message limits we render within (CONTRACTS.md §1(e), limits.json). Slack answers
 * `invalid_blocks` when one is exceeded, so the renderer truncates to these rather than fail a post.
 */
export const SLACK_LIMITS = {
  blocksPerMessage: 50,
  headerText: 150,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  url: 3000,
  imageAltText: 2000,
  /** Slack truncates `text` above 40,000 and used to ask for < 4,000; notifications show far less. */
  fallbackText: 3000,
} as const;
