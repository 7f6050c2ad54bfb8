/** The art details page (spec §2, artDetails); built in a later issue. Its close button returns to the tree. */
import { Link } from 'react-router';
import { ComingSoon } from './coming-soon.tsx';

export function ArtDetailsPage() {
  return (
    <ComingSoon title="details.">
      <p>
        <Link to="/observe" className="button">
          Back to the tree
        </Link>
      </p>
    </ComingSoon>
  );
}
