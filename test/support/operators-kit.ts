import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const OPS = path.join(__dirname, '../../ops');

export interface DashboardTarget {
  refId: string;
  expr: string;
  datasource?: { uid?: string };
}

export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type?: string; uid?: string };
  targets?: DashboardTarget[];
}

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function opsFile(relative: string): string {
  return fs.readFileSync(path.join(OPS, relative), 'utf8');
}

export const dashboard = JSON.parse(opsFile('grafana/dashboards/assay.json')) as { uid: string; title: string; schemaVersion: number; panels: DashboardPanel[] };
export const alertGroups = (parse(opsFile('prometheus/alerts.yml')) as { groups: Array<{ name: string; rules: AlertRule[] }> }).groups;

/** Every PromQL expression the dashboard and the alert rules evaluate. */
export function opsExpressions(): string[] {
  return [...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)), ...alertGroups.flatMap((group) => group.rules.map((rule) => rule.expr))];
}

/** The metric names those expressions read (Assay's, the Temporal SDK's and server's, and Prometheus's own `up`). */
export function opsMetricNames(): Set<string> {
  const names = opsExpressions().flatMap((expr) => [...expr.matchAll(/\b(?:assay|temporal|approximate|process|nodejs)_[a-z0-9_]+|\bup(?=\{)/g)].map((match) => match[0]));
  return new Set(names);
}

/** Names a worker serves: Assay's worker-side metrics and the Temporal SDK's. */
export function isWorkerMetric(name: string): boolean {
  return name.startsWith('temporal_') || ['assay_tasks_finished', 'assay_webhook_delivery_attempts', 'assay_assessment_reviews_overdue'].some((prefix) => name.startsWith(prefix));
}
