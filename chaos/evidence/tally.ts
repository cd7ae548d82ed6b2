import { AI_TASK_WORKFLOW_TYPE, ASSESSMENT_CHECK_ACTIVITIES, ASSESSMENT_WORKFLOW_TYPE, type AiTaskOutcome, type AssessmentView } from '../../src/contract';
import type { WorkItem } from '../clients/work-items';
import type { AssessmentGoal } from './drain';
import type { WorkflowRecord } from './workflow-record';

export interface Tally {
  items: number;
  succeeded: number;
  /** Accepted (or submitted) work with no workflow, or whose workflow never got done. */
  lost: number;
  /** Work with more than one workflow, more than one id for its key, or an activity that completed twice. */
  duplicated: number;
  /** One line per problem, for the report. */
  problems: string[];
}

/** Holds every work item against the workflows the server actually has. */
export function tallyWork(items: readonly WorkItem[], records: readonly WorkflowRecord[], goal: AssessmentGoal): Tally {
  const recordsByMarker = groupByMarker(records);
  const tally: Tally = { items: items.length, succeeded: 0, lost: 0, duplicated: 0, problems: [] };
  const itemKeys = new Set(items.map((item) => item.key));
  for (const item of items) {
    const found = recordsByMarker.get(item.key) ?? [];
    const duplicate = duplication(item, found);
    if (duplicate) {
      tally.duplicated++;
      tally.problems.push(duplicate);
    }
    if (found.length === 0) {
      tally.lost++;
      tally.problems.push(`lost ${item.kind} ${item.key}: no workflow (${item.accepted ? 'accepted' : `never accepted: ${item.error ?? 'unknown'}`})`);
    } else if (!found.some((record) => isDone(record, goal))) {
      tally.lost++;
      tally.problems.push(`lost ${item.kind} ${item.key}: its workflow ${found[0].workflowId} never got done`);
    } else if (found.some((record) => succeeded(record, goal))) {
      tally.succeeded++;
    } else {
      tally.problems.push(`failed ${item.kind} ${item.key}: ${JSON.stringify(found[0].result)}`);
    }
  }
  for (const [marker, found] of recordsByMarker) {
    if (itemKeys.has(marker)) continue;
    tally.duplicated += found.length;
    tally.problems.push(`unexpected workflow(s) ${found.map((record) => record.workflowId).join(', ')}`);
  }
  return tally;
}

/** The workflow runs by the chaos-item key their input carries (an unmarked one under a key of its own). */
export function groupByMarker(records: readonly WorkflowRecord[]): Map<string, WorkflowRecord[]> {
  const recordsByMarker = new Map<string, WorkflowRecord[]>();
  for (const record of records) {
    const key = record.marker ?? `unmarked:${record.workflowId}`;
    recordsByMarker.set(key, [...(recordsByMarker.get(key) ?? []), record]);
  }
  return recordsByMarker;
}

/** Why the item counts as duplicated, given the runs found for its key; undefined when it was done once. */
export function duplication(item: WorkItem, found: readonly WorkflowRecord[]): string | undefined {
  const repeatedActivity = found.some((record) => [...record.completedActivities.values()].some((count) => count > 1));
  if (found.length <= 1 && item.ids.size <= 1 && !repeatedActivity) return undefined;
  return `duplicated ${item.kind} ${item.key}: ${found.length} workflow(s), ids ${[...item.ids].join(', ')}, repeated activity: ${repeatedActivity}`;
}

function isDone(record: WorkflowRecord, goal: AssessmentGoal): boolean {
  if (record.type === ASSESSMENT_WORKFLOW_TYPE && goal === 'checked') return checksCompleted(record);
  return record.closed;
}

function succeeded(record: WorkflowRecord, goal: AssessmentGoal): boolean {
  if (record.type === AI_TASK_WORKFLOW_TYPE) return (record.result as AiTaskOutcome | undefined)?.status === 'succeeded';
  if (goal === 'checked') return checksCompleted(record);
  return (record.result as AssessmentView | undefined)?.status === 'completed';
}

// Every check activity completed (exactly once is checked with the duplicates).
function checksCompleted(record: WorkflowRecord): boolean {
  return ASSESSMENT_CHECK_ACTIVITIES.every(({ activity }) => record.completedActivities.has(activity));
}
