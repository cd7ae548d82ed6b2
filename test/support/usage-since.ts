import { bearer, http } from './http';

// A test's usage summed per model over every day since it began: a run that crosses midnight
// UTC records part of its tasks on the next day, and a report of "today" alone would miss them.

type UsageTotal = Record<string, unknown> & { model: string };

export const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

export async function usageSince(baseUrl: string, key: string, firstDay: string): Promise<UsageTotal[]> {
  const today = utcDay();
  const report = await http(`${baseUrl}/v1/usage?from=${firstDay}&to=${today}`, { headers: bearer(key) });
  if (report.status !== 200) throw new Error(`GET /v1/usage answered ${report.status}`);
  const byModel = new Map<string, UsageTotal>();
  for (const { date, ...row } of report.body.data as Array<UsageTotal & { date: string }>) {
    if (date < firstDay || date > today) throw new Error(`usage reported for ${date}, outside ${firstDay}..today`);
    const sum = byModel.get(row.model);
    byModel.set(row.model, sum ? addUp(sum, row) : row);
  }
  return [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model));
}

function addUp(sum: UsageTotal, row: UsageTotal): UsageTotal {
  const added: UsageTotal = { ...sum };
  for (const [field, value] of Object.entries(row)) {
    if (typeof value === 'number') added[field] = ((sum[field] as number | null) ?? 0) + value;
  }
  return added;
}
