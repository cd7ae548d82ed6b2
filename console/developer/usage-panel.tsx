import type { UsageReport, UsageTotal } from '../../src/sdk';
import { request } from '../api';
import { formatCost, formatCount } from '../format';
import { usePolling } from '../use-polling';

type Figures = Pick<UsageTotal, 'model' | 'tasks' | 'provider_calls' | 'input_tokens' | 'output_tokens' | 'cost'>;

/** The organisation's usage in this environment over the API's default period (the last 30 UTC days): per model, then per day and model. */
export function UsagePanel() {
  const report = usePolling(() => request<UsageReport>('GET', '/v1/usage'), 'usage');
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">Usage</h1>
      {report.error && <p role="alert" class="error">{report.error}</p>}
      {report.value && (
        <>
          <p class="muted">
            {report.value.from} to {report.value.to} (UTC days), this environment only. A task counts once, on the day it finished. Cost is in the operator's currency, from each model's prices (— for a model without prices).
          </p>
          {report.value.data.length === 0 ? (
            <p>No tasks finished in this period.</p>
          ) : (
            <>
              <h2 id="usage-by-model">By model</h2>
              <UsageTable labelledBy="usage-by-model" rows={sumByModel(report.value.data)} />
              <h2 id="usage-by-day">By day</h2>
              <UsageTable labelledBy="usage-by-day" rows={newestFirst(report.value.data)} />
            </>
          )}
        </>
      )}
    </section>
  );
}

/** One table for both views; rows with a date get a Day column. Each cell carries its heading for the phone layout, two figures a line. */
function UsageTable({ labelledBy, rows }: { labelledBy: string; rows: Array<Figures & { date?: string }> }) {
  const byDay = rows.some((row) => row.date !== undefined);
  return (
    <table class="list usage" aria-labelledby={labelledBy}>
      <thead>
        <tr>
          {byDay && <th scope="col">Day</th>}
          <th scope="col">Model</th>
          <th scope="col" class="number">Tasks</th>
          <th scope="col" class="number">Provider calls</th>
          <th scope="col" class="number">Tokens in</th>
          <th scope="col" class="number">Tokens out</th>
          <th scope="col" class="number">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.date ?? ''} ${row.model}`}>
            {byDay && <td data-label="Day">{row.date}</td>}
            <td data-label="Model" class={byDay ? undefined : 'lead'}>{row.model}</td>
            <td data-label="Tasks" class="number">{formatCount(row.tasks)}</td>
            <td data-label="Provider calls" class="number">{formatCount(row.provider_calls)}</td>
            <td data-label="Tokens in" class="number">{formatCount(row.input_tokens)}</td>
            <td data-label="Tokens out" class="number">{formatCount(row.output_tokens)}</td>
            <td data-label="Cost" class="number">{formatCost(row.cost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The period's sum per model, in model order; a cost only where some day of the model had one. */
function sumByModel(totals: UsageTotal[]): Figures[] {
  const byModel = new Map<string, Figures>();
  for (const day of totals) {
    const sum = byModel.get(day.model) ?? { model: day.model, tasks: 0, provider_calls: 0, input_tokens: 0, output_tokens: 0, cost: null };
    sum.tasks += day.tasks;
    sum.provider_calls += day.provider_calls;
    sum.input_tokens += day.input_tokens;
    sum.output_tokens += day.output_tokens;
    if (day.cost !== null) sum.cost = (sum.cost ?? 0) + day.cost;
    byModel.set(day.model, sum);
  }
  return [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model));
}

/** The API answers oldest day first; the latest day is what a person looks for. */
function newestFirst(totals: UsageTotal[]): UsageTotal[] {
  return [...totals].sort((a, b) => b.date.localeCompare(a.date) || a.model.localeCompare(b.model));
}
