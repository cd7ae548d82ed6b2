import { z } from 'zod';

export const livenessSchema = z.object({ status: z.literal('ok') });

export const readinessSchema = z.object({
  status: z.literal('ready'),
  checks: z.record(z.string(), z.literal('ok')).meta({ example: { temporal: 'ok', key_store: 'ok' } }),
});
