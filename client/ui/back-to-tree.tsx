/** The way out of a page that could not show what was asked for: a button back to the tree. */
import { Link } from '#client/router/react.tsx';

export function BackToTree({ quiet = false }: { quiet?: boolean }) {
  return (
    <Link to="/observe" className={quiet ? 'button button--quiet' : 'button'}>
      back to the tree.
    </Link>
  );
}
