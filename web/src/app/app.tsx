import { RouterProvider } from 'react-router';
import { AuthBootstrap } from './auth-bootstrap.tsx';
import { BaseProviders } from './base-providers.tsx';
import { getApiKey } from '../api/auth-store.ts';
import { createAppRouter, preloadConsole } from './routes.tsx';

const router = createAppRouter();
if (getApiKey() !== null) preloadConsole(window.location.pathname);

/** The app: /login loads only the theme; the shell brings the data layer with it (shell-layout). */
export function App() {
  return (
    <BaseProviders>
      <AuthBootstrap>
        <RouterProvider router={router} />
      </AuthBootstrap>
    </BaseProviders>
  );
}
