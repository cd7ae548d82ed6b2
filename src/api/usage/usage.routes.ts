import type { ApiOperation } from '../platform/openapi/api-operation';
import { usageReportSchema } from '../../contract/wire';
import { usageQuerySchema } from './usage-request';

/** The usage route: UsageController serves it, the OpenAPI document describes it. */
export const USAGE_ROUTES = {
  totals: {
    method: 'get',
    path: '/v1/usage',
    operationId: 'getUsage',
    tag: 'AI tasks',
    summary: 'Usage by day and model',
    description:
      "What the caller's organisation used in its environment: tasks, provider calls, tokens, characters and cost, summed per UTC day and model (a `from` after `to` gives no days). Each task counts once, on the day it finished; an erased task's usage stays counted (the figures, not its text).",
    query: usageQuerySchema,
    responses: [
      {
        status: 200,
        description: 'The totals.',
        body: { name: 'UsageReport', schema: usageReportSchema },
        example: {
          from: '2026-11-01',
          to: '2026-11-30',
          data: [
            { date: '2026-11-26', model: 'extractive', tasks: 120, provider_calls: 0, input_tokens: 0, output_tokens: 0, input_characters: 310_400, output_characters: 41_200, cost: null },
            { date: '2026-11-26', model: 'smollm2', tasks: 7, provider_calls: 23, input_tokens: 9_120, output_tokens: 1_470, input_characters: 40_310, output_characters: 2_980, cost: 0.0148 },
          ],
        },
      },
    ],
    errors: ['INVALID_REQUEST', 'SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, ApiOperation>;
