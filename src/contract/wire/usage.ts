import { z } from 'zod';

/** One model's usage on one day, as GET /v1/usage answers it. */
export const usageTotalSchema = z.object({
  date: z.iso.date().meta({ description: 'The UTC day the tasks finished.', example: '2026-11-26' }),
  model: z.string().meta({ example: 'smollm2' }),
  tasks: z.number().int().min(1).meta({ description: 'Tasks that finished with usage: every succeeded one, and failed ones that had called their model.' }),
  provider_calls: z.number().int().min(0),
  input_tokens: z.number().int().min(0).meta({ description: 'As the provider reported them; 0 when it reported none.' }),
  output_tokens: z.number().int().min(0),
  input_characters: z.number().int().min(0),
  output_characters: z.number().int().min(0),
  cost: z.number().min(0).nullable().meta({ description: "Summed from each task's cost; null when none of the day's tasks on the model had a price." }),
});

export const usageReportSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  data: z.array(usageTotalSchema).meta({ description: 'Day by day, then by model; days and models without tasks are left out.' }),
});

/** One model's usage on one UTC day (GET /v1/usage). */
export type UsageTotal = z.output<typeof usageTotalSchema>;
/** The organisation's usage in the key's environment over `from`…`to` (UTC days, inclusive). */
export type UsageReport = z.output<typeof usageReportSchema>;
