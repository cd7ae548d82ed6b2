import type { LogLevel, LogMetadata, Logger as SdkLogger } from '@temporalio/worker';
import type { Logger } from 'pino';
import { AI_TASK_WORKFLOW_ID_PREFIX, ASSESSMENT_WORKFLOW_ID_PREFIX, WEBHOOK_EVENT_WORKFLOW_ID_PREFIX } from '../contract';

// The SDK warns of a worker without workflows; a model's worker has none by design (docs/models.md).
const ACTIVITY_ONLY_WORKER = 'No workflows registered, not polling for workflow tasks';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/**
 * The Temporal SDK's Runtime logger, writing through the worker's pino logger: its own lines, the
 * ones Core forwards, and those of workflows and activities (which carry trace_id and span_id from
 * the OpenTelemetry interceptors). A workflow id names the organisation and the task, assessment or webhook event.
 */
export function sdkLogger(logger: Logger): SdkLogger {
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => {
    const pinoLevel = LEVELS[message === ACTIVITY_ONLY_WORKER ? 'INFO' : level];
    // The SDK logs each workflow's and activity's start and end at DEBUG: below the level, the fields are not built at all.
    if (logger.isLevelEnabled(pinoLevel)) logger[pinoLevel]({ ...meta, ...resourceFields(meta?.workflowId) }, message);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}

const RESOURCES = [
  { prefix: AI_TASK_WORKFLOW_ID_PREFIX, field: 'task_id' },
  { prefix: ASSESSMENT_WORKFLOW_ID_PREFIX, field: 'assessment_id' },
  { prefix: WEBHOOK_EVENT_WORKFLOW_ID_PREFIX, field: 'event_id' },
] as const;

function resourceFields(workflowId: unknown): Record<string, string> {
  if (typeof workflowId !== 'string') return {};
  for (const { prefix, field } of RESOURCES) {
    if (!workflowId.startsWith(prefix)) continue;
    const [organisation, id] = workflowId.slice(prefix.length).split('/');
    if (organisation && id) return { organisation, [field]: id };
  }
  return {};
}
