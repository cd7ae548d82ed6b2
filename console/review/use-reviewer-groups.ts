import { useEffect, useState } from 'preact/hooks';
import { request } from '../api';

let known: Promise<string[] | undefined> | undefined;

/**
 * The signed-in reviewer's groups, from `GET /v1/review/me`, asked once per page load: they change
 * only when an operator issues a new credential. Undefined until known, and from an API that does
 * not say (the console then gives no group hints; the API still refuses what the groups forbid).
 */
export function useReviewerGroups(): string[] | undefined {
  const [groups, setGroups] = useState<string[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    known ??= request<{ groups?: string[] }>('GET', '/v1/review/me').then(
      (me) => me.groups,
      () => {
        known = undefined;
        return undefined;
      },
    );
    void known.then((found) => live && setGroups(found));
    return () => {
      live = false;
    };
  }, []);
  return groups;
}

/** Forgets the groups, so the next reviewer to sign in on this page is asked for theirs. */
export function forgetReviewerGroups(): void {
  known = undefined;
}
