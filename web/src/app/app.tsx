import { RouterProvider } from 'react-router';
import { AuthBootstrap } from './auth-bootstrap.tsx';
import { AppProviders } from './providers.tsx';
import { createAppRouter } from './routes.tsx';

const router = createAppRouter();

export function App() {
  return (
    <AppProviders>
      <AuthBootstrap>
        <RouterProvider router={router} />
      </AuthBootstrap>
    </AppProviders>
  );
}
