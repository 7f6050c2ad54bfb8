/** The tree, /observe: the canvas fills the screen under the fixed header. Loaded lazily with PixiJS. */
import { usePageTitle } from '#client/app/page-title.ts';
import { TreeView } from '#client/tree/tree-view.tsx';

export function TreePage() {
  usePageTitle('observe.');
  return (
    <section className="tree-page" aria-label="The tree">
      <h1 className="visually-hidden">observe.</h1>
      <TreeView />
    </section>
  );
}
