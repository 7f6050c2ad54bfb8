/**
 * Small pieces every dashboard section uses: its heading, a query's three states, tables, dates, thumbnails, notices,
 * and running an action with its notice.
 */
import { useEffect, type ReactNode } from 'react';
import { adminErrorText } from './admin-errors.ts';
import { formatDateTime, isoOf } from './format.ts';

/** The section's heading (focused after navigation, so it takes tabIndex -1) and the document's title. */
export function SectionHeading({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · dashboard · Gallery Tree`;
  }, [title]);
  return (
    <div className="admin-section__head">
      <div>
        <h1 className="admin-section__title" tabIndex={-1}>
          {title}
        </h1>
        {lead && <p className="admin-section__lead">{lead}</p>}
      </div>
      {children}
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

/** Loading, a failure (with a retry) or the data: one look for every list. */
export function QueryView<T>({ query, children }: { query: QueryLike<T>; children: (data: T) => ReactNode }) {
  if (query.data !== undefined) return children(query.data);
  if (query.isPending) return <p className="admin-loading">Loading…</p>;
  return (
    <div className="admin-notice admin-notice--error" role="alert">
      <p>{adminErrorText(query.error)}</p>
      <button type="button" className="button button--quiet" onClick={() => void query.refetch()}>
        Try again
      </button>
    </div>
  );
}

export function DateTime({ time }: { time: number }) {
  return <time dateTime={isoOf(time)}>{formatDateTime(time)}</time>;
}

export function Thumb({ src, size = 56 }: { src: string | null; size?: number }) {
  return src ? (
    <img className="admin-thumb" src={src} alt="" width={size} height={size} loading="lazy" decoding="async" />
  ) : (
    <span className="admin-thumb admin-thumb--none" style={{ width: size, height: size }} aria-hidden="true" />
  );
}

export function EmptyNote({ children }: { children: ReactNode }) {
  return <p className="admin-empty">{children}</p>;
}

/** A column heading; one given as { hidden } is read aloud only (a column of buttons). */
export type Column = string | { hidden: string };

/** A section's table: its caption (read aloud only), its column headings, then the rows it is given. */
export function AdminTable({
  testId,
  caption,
  columns,
  children,
}: {
  testId: string;
  caption: string;
  columns: readonly Column[];
  children: ReactNode;
}) {
  return (
    <table className="admin-table" data-testid={testId}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) =>
            typeof column === 'string' ? (
              <th key={column} scope="col">
                {column}
              </th>
            ) : (
              <th key={column.hidden} scope="col">
                <span className="visually-hidden">{column.hidden}</span>
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

export interface Notice {
  kind: 'error' | 'success';
  text: string;
}

interface StaffAction {
  run: () => Promise<unknown>;
  /** What is said when it worked. */
  done: string;
  onNotice: (notice: Notice) => void;
  /** Called when it failed, after the failure is said. */
  onFailure?: () => void;
  /** Fetches again what the action touched: either way, as a failure may mean the page was out of date. */
  refresh: () => Promise<unknown>;
}

/** Runs a staff action from a list, says how it went, then fetches the list again. */
export async function runStaffAction({ run, done, onNotice, onFailure, refresh }: StaffAction): Promise<void> {
  try {
    await run();
    onNotice({ kind: 'success', text: done });
  } catch (error) {
    onNotice({ kind: 'error', text: adminErrorText(error) });
    onFailure?.();
  }
  await refresh();
}

/** The outcome of the last action in a section, in a live region: a success is said politely, a failure as an alert. */
export function NoticeLine({ notice }: { notice: Notice | null }) {
  return (
    <div className="admin-notice-slot" aria-live="polite">
      {notice && (
        <p
          className={`admin-notice admin-notice--${notice.kind}`}
          role={notice.kind === 'error' ? 'alert' : undefined}
          data-testid="admin-notice"
        >
          {notice.text}
        </p>
      )}
    </div>
  );
}
