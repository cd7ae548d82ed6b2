/** "in 3 h" / "5 min overdue": how far a deadline is, for people scanning a queue. */
export function describeDue(dueAt: string | undefined, now: Date): { text: string; overdue: boolean } {
  if (!dueAt) return { text: '—', overdue: false };
  const ms = Date.parse(dueAt) - now.getTime();
  const span = humanSpan(Math.abs(ms));
  return ms < 0 ? { text: `${span} overdue`, overdue: true } : { text: `in ${span}`, overdue: false };
}

function humanSpan(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

export function shortTime(iso: string | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—';
}

/** 12,345: counts and token figures, with thousands separators. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** A cost in the operator's currency (the API names none): "0.0123", "12.50"; "—" when the model has no price. */
export function formatCost(cost: number | null | undefined): string {
  return cost === null || cost === undefined ? '—' : cost.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
}
