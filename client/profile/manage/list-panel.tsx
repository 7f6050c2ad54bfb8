/**
 * A manage-profile panel that lists what a query brings (ATELIER, FOLLOWING): its title and lead, then "Loading...",
 * the failure, the empty state, or the list itself.
 */
import type { ReactNode } from 'react';

interface ListQuery<T> {
  isPending: boolean;
  isError: boolean;
  data: T[] | undefined;
}

interface ListPanelProps<T> {
  title: string;
  lead: string;
  query: ListQuery<T>;
  /** Said (as an alert) when the list could not be loaded. */
  failure: string;
  /** Shown in place of the list when it is empty, with its own .panel-status wrapper. */
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}

export function ListPanel<T>({ title, lead, query, failure, empty, children }: ListPanelProps<T>) {
  let body: ReactNode;
  if (query.isPending) body = <p className="panel-status">Loading...</p>;
  else if (query.isError || query.data === undefined)
    body = (
      <p className="panel-status" role="alert">
        {failure}
      </p>
    );
  else if (query.data.length === 0) body = empty;
  else body = children(query.data);
  return (
    <div className="panel-card panel-card--table">
      <h2 className="panel-card__title">{title}</h2>
      <p className="panel-card__lead">{lead}</p>
      {body}
    </div>
  );
}
