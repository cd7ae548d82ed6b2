import type { Caller } from '../keys/key-authenticator';
import type { TemporalClients } from '../temporal/temporal-clients';
import { ORGANIZATION_SEARCH_ATTRIBUTE } from '../../../contract';
import type { ListCursors } from './list-cursor';
import { equals, quote, visibilityQuery } from '../../../common/visibility/visibility-query';
import type { ListPage, ListRequest } from '../../../contract/wire/listing';

/** A resource as read from the current run of its workflow id. */
export interface CurrentRun<T> {
  resource: T;
  runId: string;
}

export interface ListSource<S extends string, T extends { status: string }> {
  workflowType: string;
  /** Visibility clauses every item meets (one batch's tasks, say). */
  clauses?: string[];
  /** Visibility clauses that narrow to a status; the exact status is checked on each item too. */
  statusClauses(status: S): string[];
  /** Reads one resource, as GET does, from the current run of its workflow id (undefined when it vanished meanwhile). */
  read(workflowId: string): Promise<CurrentRun<T> | undefined>;
}

/**
 * One page of the caller's own resources from Temporal visibility, in its order (unfinished
 * first, then the most recently finished; visibility on SQL stores has no ORDER BY): the
 * organisation is always a clause, and the namespace is the caller's environment, so nobody
 * else's items can appear. Items are read like a GET, so they look exactly like one; a status
 * filter visibility cannot express exactly (queued vs running) is finished on the items, so such
 * pages may hold fewer than `limit` items while `has_more` is still right. Visibility keeps every
 * run of a workflow id (an operator's reset adds one); only the row of the run GET reads is shown,
 * so an id appears once, with what GET says, whatever runs its history holds.
 */
export async function listResources<S extends string, T extends { status: string }>(
  temporal: TemporalClients,
  cursors: ListCursors,
  caller: Caller,
  request: ListRequest<S>,
  source: ListSource<S, T>,
): Promise<ListPage<T>> {
  const clauses = [equals('WorkflowType', source.workflowType), equals(ORGANIZATION_SEARCH_ATTRIBUTE.name, caller.organizationId), ...(source.clauses ?? [])];
  if (request.status) clauses.push(...source.statusClauses(request.status));
  if (request.created_after) clauses.push(`StartTime >= ${quote(request.created_after)}`);
  if (request.created_before) clauses.push(`StartTime < ${quote(request.created_before)}`);
  const query = visibilityQuery(clauses);
  // The namespace is not in the query: a cursor of the sandbox's list must not page production's.
  const scope = `${caller.environment}\n${query}`;
  const pageToken = request.cursor ? await cursors.decode(request.cursor, scope) : undefined;
  const page = await temporal.listRuns(caller.environment, query, request.limit, pageToken);
  const items: Array<T | undefined> = await Promise.all(
    page.runs.map(async (listed): Promise<T | undefined> => {
      const current = await source.read(listed.workflowId);
      return current?.runId === listed.runId ? current.resource : undefined;
    }),
  );
  const data = items.filter((item): item is T => item !== undefined && (!request.status || item.status === request.status));
  return {
    data,
    has_more: page.nextPageToken !== undefined,
    next_cursor: page.nextPageToken ? await cursors.encode(page.nextPageToken, scope) : null,
  };
}
