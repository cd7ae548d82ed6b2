import { z } from 'zod';
import { SERVICE_ERROR_CODES } from './values';

/** The one body of every non-2xx answer (docs/api.md, Errors). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(SERVICE_ERROR_CODES),
    message: z.string().meta({ description: 'Safe to show; never contains a key.' }),
    request_id: z.string().meta({ description: 'Also in the X-Request-Id header; quote it to support.', example: 'req_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  }),
});

export type ErrorBody = z.output<typeof errorBodySchema>;
