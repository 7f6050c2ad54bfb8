/** The React app: providers around the router. */
import { useState } from 'react';
import { RouterView } from '#client/router/react.tsx';
import { Providers } from './providers.tsx';
import { appErrorElement, appLayout, createAppRouter } from './routes.tsx';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <Providers>
      <RouterView router={router} layout={appLayout} errorElement={appErrorElement} />
    </Providers>
  );
}
