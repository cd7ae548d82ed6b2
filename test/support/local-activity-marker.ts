import type { temporal } from '@temporalio/proto';

/**
 * The activity type a local activity's marker records, or undefined for any other event. The
 * SDK records each local activity that finished as one `core_local_activity` marker, however
 * often a worker crash made it run; two markers of one type would be work recorded twice.
 */
export function localActivityTypeOf(event: temporal.api.history.v1.IHistoryEvent): string | undefined {
  const marker = event.markerRecordedEventAttributes;
  const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0]?.data : undefined;
  return data ? (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string }).activity_type : undefined;
}

/** The activity type of every local activity the history recorded, in order. */
export function localActivityTypes(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((event) => localActivityTypeOf(event) ?? []);
}
