import type { ComponentChild } from 'preact';
import { useState } from 'preact/hooks';
import type { ListPage } from '../../src/sdk';
import { request } from '../api';
import { shortTime } from '../format';
import { usePolling } from '../use-polling';

interface Listed {
  status: string;
  created_at: string;
}

/** A column beyond id, status and creation time; its heading labels the cell at phone width too. */
export interface Column<T> {
  heading: string;
  cell(item: T): ComponentChild;
}

interface Props<T extends Listed> {
  title: string;
  path: string;
  statuses: readonly string[];
  idOf(item: T): string;
  labelOf(item: T): string;
  detailHref(item: T): string;
  /** The status cell; the status alone unless given. */
  statusOf?(item: T): ComponentChild;
  /** Shown after the status. */
  columns?: Column<T>[];
}

/** A list endpoint with the API's own filters (status, created after/before, page size) and its cursor. */
export function ResourceList<T extends Listed>({ title, path, statuses, idOf, labelOf, detailHref, statusOf, columns = [] }: Props<T>) {
  const [status, setStatus] = useState('');
  const [createdAfter, setCreatedAfter] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const query = new URLSearchParams({ limit: '20' });
  if (status) query.set('status', status);
  if (createdAfter) query.set('created_after', new Date(createdAfter).toISOString());
  const cursor = cursors[cursors.length - 1];
  if (cursor) query.set('cursor', cursor);
  const page = usePolling(() => request<ListPage<T>>('GET', `${path}?${query}`), query.toString());
  const headingId = `${title.toLowerCase().replace(/\W+/g, '-')}-title`;
  return (
    <section aria-labelledby={headingId}>
      <h1 id={headingId}>{title}</h1>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status{' '}
          <select value={status} onChange={(event) => { setStatus((event.target as HTMLSelectElement).value); setCursors([]); }}>
            <option value="">any</option>
            {statuses.map((value) => <option key={value} value={value}>{value}</option>)}
          </select>
        </label>
        <label>
          Created after{' '}
          <input type="datetime-local" value={createdAfter} onChange={(event) => { setCreatedAfter((event.target as HTMLInputElement).value); setCursors([]); }} />
        </label>
      </form>
      {page.error && <p role="alert" class="error">{page.error}</p>}
      {page.value && (
        <>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Status</th>
                {columns.map((column) => <th key={column.heading} scope="col">{column.heading}</th>)}
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.value.data.map((item) => (
                <tr key={idOf(item)}>
                  <td><a href={detailHref(item)}>{labelOf(item)}</a><div class="muted">{idOf(item)}</div></td>
                  <td>{statusOf ? statusOf(item) : item.status}</td>
                  {columns.map((column) => <td key={column.heading} data-label={column.heading}>{column.cell(item)}</td>)}
                  <td>{shortTime(item.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.value.data.length === 0 && <p>Nothing matches.</p>}
          <div class="buttons">
            <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>Previous</button>
            <button type="button" class="secondary" disabled={!page.value.has_more} onClick={() => page.value?.next_cursor && setCursors([...cursors, page.value.next_cursor])}>Next</button>
          </div>
        </>
      )}
    </section>
  );
}

/** A task or an assessment as GET answers it, readable and complete; `fields` words some fields instead of showing their JSON. */
export function ResourceDetail({ path, title, fields = {} }: { path: string; title: string; fields?: Record<string, (value: unknown) => ComponentChild> }) {
  const resource = usePolling(() => request<Record<string, unknown>>('GET', path), path);
  return (
    <section aria-labelledby="detail-title">
      <h1 id="detail-title">{title}</h1>
      {resource.error && <p role="alert" class="error">{resource.error}</p>}
      {resource.value && (
        <dl class="detail">
          {Object.entries(resource.value).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{Object.hasOwn(fields, name) ? fields[name](value) : typeof value === 'object' ? <pre>{JSON.stringify(value, null, 2)}</pre> : String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
