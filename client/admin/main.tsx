/**
 * The staff dashboard's entry (/admin/dashboard): its own page and React root, outside the app's routes, served to
 * admins only; same boot data, tRPC API and session as the app (decision 013).
 */
import { createRoot } from 'react-dom/client';
import { loadBoot } from '#client/api/initial-params.ts';
import { AdminApp } from './admin-app.tsx';
import '#client/styles/global.css';
import '#client/forms/forms.css';
import './admin.css';

const root = createRoot(document.getElementById('root')!);

loadBoot().then(
  () => root.render(<AdminApp />),
  (error: unknown) => {
    root.render(
      <main className="boot-error">
        <h1>dashboard.</h1>
        <p>{error instanceof Error ? error.message : 'The dashboard could not start.'}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </main>,
    );
  },
);
