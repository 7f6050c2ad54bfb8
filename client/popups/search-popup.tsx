/**
 * The search popup (docs/product.md, Screens and routes): runs on open with the tree's search box's text and again on
 * Enter; 'Please wait...', then 'No records' or a table of pieces, each with a button to its details page.
 */
import { useState } from 'react';
import { Link } from '#client/router/react.tsx';
import type { SearchHit } from '#shared/art-api.ts';
import { SEARCH_MAX_LENGTH, SEARCH_PLACEHOLDER, isSearchable } from '#shared/validation/search.ts';
import { trpc } from '#client/api/trpc.ts';
import { Popup } from './popup.tsx';
import { cellPath } from '#shared/paths.ts';
import { AI_USE_WORDS } from '#shared/words.ts';
import { formatDate } from '#client/app/dates.ts';

export interface SearchPopupProps {
  initialTerm: string;
  onClose: () => void;
}

export function SearchPopup({ initialTerm, onClose }: SearchPopupProps) {
  const [text, setText] = useState(initialTerm);
  const [term, setTerm] = useState(initialTerm.trim());
  const search = trpc.cell.search.useQuery(
    { search: term },
    { enabled: isSearchable(term), retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
  );

  const run = () => {
    if (!isSearchable(text)) return;
    const next = text.trim();
    if (next === term) void search.refetch();
    else setTerm(next);
  };

  const hits = search.data ?? [];
  let body;
  if (search.isError || (search.isSuccess && hits.length === 0)) {
    body = <p className="search-popup__status">No records</p>;
  } else if (!search.isSuccess || search.isFetching) {
    body = (
      <p className="search-popup__status" aria-busy="true">
        Please wait...
      </p>
    );
  } else {
    body = <SearchResults hits={hits} />;
  }

  return (
    <Popup title="search results." eyebrow="the tree" onClose={onClose} wide testId="search-popup">
      <form
        className="search-popup__form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <label className="visually-hidden" htmlFor="search-popup-input">
          Search the pieces
        </label>
        <input
          id="search-popup-input"
          className="search-popup__input"
          type="text"
          autoComplete="off"
          value={text}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder={SEARCH_PLACEHOLDER}
          onChange={(event) => setText(event.currentTarget.value)}
          enterKeyHint="search"
          data-autofocus
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <div aria-live="polite" data-testid="search-status">
        {body}
      </div>
    </Popup>
  );
}

function SearchResults({ hits }: { hits: SearchHit[] }) {
  return (
    <>
      <p className="search-popup__count">
        {hits.length === 1 ? '1 piece' : `${hits.length} pieces`}, best matches first
      </p>
      <table className="data-table search-results">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Thumbnail</span>
            </th>
            <th scope="col">Artist name</th>
            <th scope="col">Title</th>
            <th scope="col">Category</th>
            <th scope="col">Date added</th>
            <th scope="col">AI</th>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {hits.map((hit) => (
            <tr key={hit.cellToken} data-testid="search-result">
              <td className="search-results__cell--thumb">
                {hit.thumb ? (
                  <img className="data-table__thumb" src={hit.thumb} alt="" width={56} height={56} loading="lazy" />
                ) : (
                  <span className="data-table__thumb" />
                )}
              </td>
              <td className="search-results__cell--artist">{hit.artist}</td>
              <td className="search-results__cell--title">
                <span className="search-results__title">{hit.title}</span>
              </td>
              <td className="search-results__cell--category">{hit.category}</td>
              <td className="search-results__cell--date">
                <time className="search-results__date" dateTime={new Date(hit.addedAt).toISOString()}>
                  {formatDate(hit.addedAt, 'short')}
                </time>
              </td>
              <td className="search-results__cell--ai">
                <span className={`ai-label ai-label--${hit.aiUse}`}>{AI_USE_WORDS[hit.aiUse]?.badge ?? hit.aiUse}</span>
              </td>
              <td className="search-results__cell--action search-results__action">
                <Link
                  className="button button--quiet search-results__view"
                  to={cellPath(hit.cellToken, 'details')}
                  aria-label={`View details of ${hit.title} by ${hit.artist}`}
                >
                  VIEW DETAILS
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
