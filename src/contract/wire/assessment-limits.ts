/** What POST /v1/network-assessments accepts; documented in docs/api.md, Assessment limits. */
export const ASSESSMENT_LIMITS = {
  nameLength: 200,
  contextLength: 20_000,
  components: 2_000,
  links: 10_000,
  componentIdLength: 128,
  kindLength: 64,
  zoneLength: 64,
  attributes: 20,
  attributeKeyLength: 64,
  attributeStringLength: 256,
  /**
   * The request as it goes into the workflow input, serialised. Temporal refuses a payload over
   * 2 MB; 1.5 MiB leaves room for the rest of the start request. A 2,000-component,
   * 10,000-link graph with everyday ids needs about 1 MB (measured in the e2e test).
   */
  serializedBytes: 1.5 * 1024 * 1024,
} as const;

/**
 * Fastify's body limit must let the largest accepted architecture through even when its JSON is
 * pretty-printed; the serialised size above is the real limit, checked after parsing.
 */
export const MAX_ASSESSMENT_BODY_BYTES = 4 * 1024 * 1024;
