import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ApiMetrics } from '../../../src/api/platform/metrics/api-metrics';
import { alertGroups, dashboard, isWorkerMetric, opsFile, opsMetricNames } from '../../support/operators-kit';

const compose = parse(fs.readFileSync(path.join(__dirname, '../../../docker-compose.yml'), 'utf8'), { merge: true });
const services: Record<string, any> = compose.services;
const datasources = (parse(opsFile('grafana/provisioning/datasources/datasources.yml')) as { datasources: Array<{ uid: string; type: string; url: string }> }).datasources;
const prometheusConfig = parse(opsFile('prometheus/prometheus.yml')) as { rule_files: string[]; scrape_configs: Array<{ job_name: string; static_configs?: Array<{ targets: string[] }>; dns_sd_configs?: Array<{ names: string[]; port: number }> }> };

// The Temporal server's own metric behind the backlog panel (server 1.25 and later); the worker
// metrics are checked against a real worker's scrape in test/integration/worker/metrics.test.ts.
const SERVER_METRICS = ['approximate_backlog_count'];

/** Every series name the API serves: its registry's metrics, histograms with their _bucket, _count and _sum. */
async function apiSeriesNames(): Promise<Set<string>> {
  const metrics = await new ApiMetrics().registry.getMetricsAsJSON();
  return new Set(metrics.flatMap(({ name, type }) => (String(type) === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name])));
}

describe('the Grafana dashboard', () => {
  it('is a dashboard JSON model Grafana provisions: uid, title, schema version, panels with unique ids', () => {
    expect(dashboard).toMatchObject({ uid: expect.stringMatching(/^[a-z0-9-]{1,40}$/), title: expect.any(String), schemaVersion: expect.any(Number) });
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lays every panel out inside the 24-column grid without overlaps', () => {
    const cells = new Set<string>();
    for (const { title, gridPos } of dashboard.panels) {
      expect([title, gridPos.x >= 0 && gridPos.w > 0 && gridPos.x + gridPos.w <= 24 && gridPos.h > 0]).toEqual([title, true]);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`) ? title : '').toBe('');
          cells.add(`${x},${y}`);
        }
      }
    }
  });

  it('queries the provisioned Prometheus from every graph, each target with a refId and an expression', () => {
    const prometheus = datasources.find((source) => source.type === 'prometheus');
    expect(prometheus).toMatchObject({ url: 'http://prometheus:9090' });
    const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(graphs.length).toBeGreaterThan(0);
    for (const panel of graphs) {
      expect([panel.title, panel.datasource?.uid]).toEqual([panel.title, prometheus?.uid]);
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target).toMatchObject({ refId: expect.stringMatching(/^[A-Z]$/), expr: expect.stringMatching(/\S/) });
    }
  });

  it('covers what the issue asks: request rates and latencies, tasks by outcome, schedule-to-start and backlog, webhook failures, review SLA breaches', () => {
    const names = opsMetricNames();
    for (const metric of [
      'assay_http_request_duration_seconds_count',
      'assay_http_request_duration_seconds_bucket',
      'assay_tasks_finished_total',
      'temporal_workflow_task_schedule_to_start_latency_bucket',
      'temporal_activity_schedule_to_start_latency_bucket',
      'approximate_backlog_count',
      'assay_webhook_delivery_attempts_total',
      'assay_assessment_reviews_overdue_total',
    ]) {
      expect(names).toContain(metric);
    }
  });
});

describe('the Prometheus alert rules', () => {
  const rules = alertGroups.flatMap((group) => group.rules);

  it('are rule groups with unique names, each alert with an expression, a severity and a summary', () => {
    expect(new Set(alertGroups.map((group) => group.name)).size).toBe(alertGroups.length);
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule).toMatchObject({ alert: expect.stringMatching(/^[A-Za-z][A-Za-z0-9]*$/), expr: expect.stringMatching(/\S/), labels: { severity: expect.stringMatching(/^(page|ticket)$/) }, annotations: { summary: expect.any(String) } });
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smhd]$/);
      expect(Object.keys(rule).every((key) => ['alert', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations'].includes(key))).toBe(true);
    }
  });

  it('balance their parentheses and braces, and template only labels and values', () => {
    for (const rule of rules) {
      for (const [open, close] of ['()', '{}', '[]']) expect([rule.alert, rule.expr.split(open).length]).toEqual([rule.alert, rule.expr.split(close).length]);
      for (const text of Object.values(rule.annotations ?? {})) for (const [, inner] of text.matchAll(/\{\{([^}]*)\}\}/g)) expect(inner.trim()).toMatch(/^\$(value|labels\.[a-z_]+)( \| humanize\w*)?$/);
    }
  });
});

describe('the metric names the dashboard and the alerts read', () => {
  it("exist: the API's from its registry, the Temporal server's named here, the workers' checked by their integration test", async () => {
    const api = await apiSeriesNames();
    const unknown = [...opsMetricNames()].filter((name) => name !== 'up' && !api.has(name) && !SERVER_METRICS.includes(name) && !isWorkerMetric(name));
    expect(unknown).toEqual([]);
  });
});

describe('the wiring in docker-compose.yml', () => {
  it('runs Prometheus with these rules, Grafana with this dashboard, and Jaeger, from their official images', () => {
    expect(services.prometheus.image).toMatch(/^prom\/prometheus:/);
    expect(services.grafana.image).toMatch(/^grafana\/grafana:/);
    expect(services.jaeger.image).toMatch(/^jaegertracing\/all-in-one:/);
    expect(services.prometheus.volumes).toContain('./ops/prometheus:/etc/prometheus:ro');
    expect(prometheusConfig.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(services.grafana.volumes).toEqual(expect.arrayContaining(['./ops/grafana/provisioning:/etc/grafana/provisioning:ro', './ops/grafana/dashboards:/var/lib/grafana/dashboards:ro']));
    expect(datasources.map((source) => new URL(source.url).hostname).sort()).toEqual(['jaeger', 'prometheus']);
  });

  it('scrapes the API, every worker replica and the Temporal server where compose serves them', () => {
    const jobs = Object.fromEntries(prometheusConfig.scrape_configs.map((job) => [job.job_name, job]));
    expect(jobs['assay-api'].static_configs?.[0].targets).toEqual([`api:${services.api.environment.PORT}`]);
    expect(jobs['assay-worker'].dns_sd_configs?.[0]).toEqual({ names: ['worker'], type: 'A', port: Number(services.worker.environment.WORKER_METRICS_PORT) });
    expect(jobs.temporal.static_configs?.[0].targets).toEqual([services.temporal.environment.PROMETHEUS_ENDPOINT.replace('0.0.0.0', 'temporal')]);
  });

  it("sends the API's and the workers' traces to Jaeger over OTLP, and gives the Temporal server no OTEL_* variable", () => {
    for (const name of ['api', 'worker']) expect(services[name].environment).toMatchObject({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' });
    expect(services.jaeger.expose).toContain('4318');
    expect(Object.keys(services.temporal.environment).filter((variable) => variable.startsWith('OTEL_'))).toEqual([]);
  });
});
