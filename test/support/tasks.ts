import type { CreateTaskRequest, Task } from '../../src/sdk';
import { eventually } from './eventually';
import { bearer, http } from './http';

/** A create request for tests that need a task, not a particular summary: two short sentences. */
export const SUMMARIZE_TASK: CreateTaskRequest = { task_type: 'summarize', input: { text: 'The council approved the plan. It adds three bus lines.' } };

/** Reads the task until it is succeeded or failed, as a client polling it would. */
export async function taskWhenFinal<T extends Pick<Task, 'status'> = Task>(baseUrl: string, key: string, id: string, timeoutMs = 60_000): Promise<T> {
  return eventually(
    async () => (await http<T>(`${baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) })).body,
    (task) => task.status === 'succeeded' || task.status === 'failed',
    `task ${id} to be final`,
    timeoutMs,
  );
}
