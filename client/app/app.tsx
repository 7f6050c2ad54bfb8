/** The React app: providers around the router. */
import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './providers.tsx';
import { createAppRouter } from './routes.tsx';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
