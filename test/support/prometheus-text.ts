/** Fetches a Prometheus endpoint's text exposition. */
export async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

/** The value of the one sample of `metric` whose labels include all of `labels`, if there is one. */
export function sample(exposition: string, metric: string, labels: Record<string, string>): number | undefined {
  const line = exposition
    .split('\n')
    .find((candidate) => candidate.startsWith(`${metric}{`) && Object.entries(labels).every(([name, value]) => candidate.includes(`${name}="${value}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
