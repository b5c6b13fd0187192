import './theme/mantine-console.css';
import '@mantine/notifications/styles.css';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../api/query-client.ts';
import { ToastBridge } from './shell/toast-bridge.tsx';
import toastClasses from './shell/toasts.module.css';

/**
 * Signed-in pages outside the console frame (the account's own security page, which an account
 * that must enrol a second factor reaches before anything else): the same data layer, modals and
 * toasts as the shell, without its navigation.
 */
export default function StandaloneLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider>
        <Notifications position="top-right" limit={4} classNames={{ root: toastClasses.root }} />
        <ToastBridge />
        <Outlet />
      </ModalsProvider>
    </QueryClientProvider>
  );
}
