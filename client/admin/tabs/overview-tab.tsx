/**
 * OVERVIEW: the gallery's health at a glance. The counts staff act on (each linking to its section), then the
 * tree's growth week by week: pieces published, reservations made and expired, new users.
 */
import { Link } from '#client/router/react.tsx';
import type { AdminCounts, AdminOverview } from '#shared/admin-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { QueryView, SectionHeading } from '../parts.tsx';
import { WeeklyChart } from '../weekly-chart.tsx';

const COUNT_TILES: readonly { key: keyof AdminCounts; label: string; to?: string }[] = [
  { key: 'submittedWaiting', label: 'pieces waiting for review', to: '/review' },
  { key: 'openRemovalRequests', label: 'open removal requests', to: '/removals' },
  { key: 'unhandledMessages', label: 'messages to handle', to: '/messages' },
  { key: 'piecesPublished', label: 'pieces published' },
  { key: 'reservationsActive', label: 'squares reserved now', to: '/reservations' },
  { key: 'users', label: 'members', to: '/users' },
];

export function OverviewTab() {
  const overview = trpc.admin.overview.useQuery({});
  return (
    <section className="admin-section">
      <SectionHeading
        title="overview."
        lead="What waits for staff, and how the tree has grown over the last six months."
      />
      <QueryView query={overview}>{(data) => <OverviewBody overview={data} />}</QueryView>
    </section>
  );
}

function OverviewBody({ overview }: { overview: AdminOverview }) {
  const { counts, weeks } = overview;
  const starts = weeks.map((week) => week.weekStart);
  return (
    <>
      <ul className="admin-counts" data-testid="admin-counts">
        {COUNT_TILES.map((tile) => (
          <li key={tile.key} className="admin-count" data-count={tile.key}>
            <span className="admin-count__value">{counts[tile.key].toLocaleString()}</span>
            {tile.to ? (
              <Link className="admin-count__label" to={tile.to}>
                {tile.label}
              </Link>
            ) : (
              <span className="admin-count__label">{tile.label}</span>
            )}
          </li>
        ))}
      </ul>
      <h2 className="admin-subtitle">Growth, week by week</h2>
      <div className="admin-charts">
        <WeeklyChart
          testId="chart-published"
          title="Pieces published"
          kind="bar"
          weeks={starts}
          series={[{ label: 'Published', values: weeks.map((week) => week.published), colour: 'var(--accent)' }]}
        />
        <WeeklyChart
          testId="chart-reservations"
          title="Reservations made and expired"
          kind="line"
          weeks={starts}
          series={[
            { label: 'Made', values: weeks.map((week) => week.reservationsMade), colour: 'var(--tone-slate)' },
            { label: 'Expired', values: weeks.map((week) => week.reservationsExpired), colour: 'var(--tone-clay)' },
          ]}
        />
        <WeeklyChart
          testId="chart-users"
          title="New members"
          kind="bar"
          weeks={starts}
          series={[{ label: 'New members', values: weeks.map((week) => week.newUsers), colour: 'var(--tone-ochre)' }]}
        />
      </div>
    </>
  );
}
