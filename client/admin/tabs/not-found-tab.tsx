/** An address under /admin/dashboard that names no section. */
import { Link } from '#client/router/react.tsx';
import { SectionHeading } from '../parts.tsx';

export function NotFoundTab() {
  return (
    <section className="admin-section">
      <SectionHeading title="not found." lead="The dashboard has no such section." />
      <p>
        <Link to="/">Go to the overview</Link>
      </p>
    </section>
  );
}
