import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CreateTaskRequest } from '../../src/sdk';
import { SINGLE_ZONE_GRAPH } from './graphs';

// What the at-rest tests (npm start's SQLite, the cluster's PostgreSQL) submit and then look for
// everywhere the stack wrote: a word that occurs nowhere else.

/** A word no code, log format or id can produce by chance. */
export function newMarker(): string {
  return `zq${Date.now().toString(36)}${randomBytes(4).toString('hex')}markerxv`;
}

/** A task whose text holds the marker; the extractive summariser keeps it in the summary. */
export function markerTask(marker: string): CreateTaskRequest {
  return { task_type: 'summarize', input: { text: `The word of the day is ${marker}. The council approved the plan.` } };
}

/** An assessment whose name, context and graph (a component's attributes) hold the marker. */
export function markerAssessment(marker: string) {
  const components = SINGLE_ZONE_GRAPH.components.map((component, index) => (index === 0 ? { ...component, attributes: { note: marker } } : component));
  return { name: `Shop ${marker}`, context: `Runs ${marker} at peak.`, ...SINGLE_ZONE_GRAPH, components };
}

/** Every file under `dir`, as its path below it; read one at a time by `holding`, so large ones (database files) are fine. */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** Which of the files (paths under `dir`) hold `needle`, byte for byte. */
export function holding(dir: string, files: readonly string[], needle: string): string[] {
  return files.filter((file) => fs.readFileSync(path.join(dir, file)).includes(needle));
}
