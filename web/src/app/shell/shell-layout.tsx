import '../theme/mantine-console.css';
import '@mantine/notifications/styles.css';
import { ActionIcon, AppShell, Burger, Group, Text, Tooltip } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { IconKeyboard, IconMail, IconSearch } from '@tabler/icons-react';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useAuth } from '../../api/auth-store.ts';
import { queryClient } from '../../api/query-client.ts';
import { signOut } from '../../api/sign-out.ts';
import { refreshSystemStatus } from '../../api/system-status.ts';
import { PageLoader } from '../require-auth.tsx';
import type { Shortcut } from '../shortcuts/shortcuts.ts';
import { AccessGate, useAccess } from './access.tsx';
import { GlobalSearch } from './global-search.tsx';
import { MaintenanceBanner } from './maintenance-banner.tsx';
import { navItemsFor } from './nav-items.ts';
import { NotificationsMenu } from './notifications-menu.tsx';
import { Sidebar } from './sidebar.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import { ToastBridge } from './toast-bridge.tsx';
import toastClasses from './toasts.module.css';
import { useIdlePreload } from './use-idle-preload.ts';
import { useKeyboardShortcuts } from './use-keyboard-shortcuts.ts';

// The search palette and the shortcuts help are not on the first screen: their code loads when
// the browser is first idle, or at once when one is opened before that, and they mount when first
// opened (the header box is the search on wide screens).
const loadPalette = () => import('./search-palette.tsx');
const loadHelp = () => import('./help-dialog.tsx');
const SearchPalette = lazy(() => loadPalette().then((m) => ({ default: m.SearchPalette })));
const HelpDialog = lazy(() => loadHelp().then((m) => ({ default: m.HelpDialog })));
const PRELOAD = [loadPalette, loadHelp];

/**
 * The console frame: header (search, help, theme, bell), sidebar / burger menu, page outlet.
 * Modals and toasts live here, not in the app root, so that /login does not download them.
 */
export default function ShellLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider>
        {/* Top right, below the header: toasts never cover the search, the bell or the menu. (At the
          bottom they covered a long form's Save button scrolled into view.) */}
        <Notifications position="top-right" limit={4} classNames={{ root: toastClasses.root }} />
        <ToastBridge />
        <ConsoleFrame />
      </ModalsProvider>
    </QueryClientProvider>
  );
}

function ConsoleFrame() {
  const { email } = useAuth();
  const access = useAccess();
  // Loading counts as an administrator's chrome: the server decides what each call answers.
  const isAdmin = access.role !== 'domain-admin';
  const navigate = useNavigate();
  const [menuOpened, menu] = useDisclosure(false);
  const [helpOpened, help] = useDisclosure(false);
  // Once mounted they stay (their closing transitions, the palette's query), so these only turn on.
  const [helpMounted, setHelpMounted] = useState(false);
  if (helpOpened && !helpMounted) setHelpMounted(true);
  const [paletteMounted, setPaletteMounted] = useState(false);
  const openPalette = () => {
    setPaletteMounted(true);
    void loadPalette().then((m) => m.palette.open());
  };
  const closePalette = () => {
    if (paletteMounted) void loadPalette().then((m) => m.palette.close());
  };
  useIdlePreload(PRELOAD);
  const searchInput = useRef<HTMLInputElement>(null);
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });

  const doSignOut = () => {
    menu.close();
    void signOut().then(() => navigate('/login', { replace: true }));
  };

  useKeyboardShortcuts((s: Shortcut) => {
    switch (s.id) {
      case 'dashboard':
      case 'mail':
      case 'dns':
      case 'ssl':
      case 'web':
      case 'mfa':
      case 'system':
        menu.close();
        if (s.route) void navigate(s.route);
        return;
      case 'refresh':
        void refreshSystemStatus();
        return;
      case 'logout':
        doSignOut();
        return;
      case 'focusSearch':
        if (wide && searchInput.current) searchInput.current.focus();
        else openPalette();
        return;
      case 'openSearch':
        openPalette();
        return;
      case 'help':
        help.open();
        return;
      case 'close':
        help.close();
        menu.close();
        closePalette();
        return;
    }
  });

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !menuOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={menuOpened}
              onClick={menu.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={
                menuOpened ? 'Close navigation menu' : `Open navigation menu (signed in as ${email ?? ''})`
              }
            />
            <IconMail size={26} aria-hidden color="var(--mantine-primary-color-filled)" />
            <Text fw={700} size="lg" visibleFrom="xs">
              Management Dashboard
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {wide && <GlobalSearch inputRef={searchInput} />}
            {!wide && (
              <ActionIcon variant="default" size="lg" onClick={openPalette} aria-label="Search">
                <IconSearch size={18} aria-hidden />
              </ActionIcon>
            )}
            <Tooltip label="Keyboard shortcuts (?)" withArrow>
              <ActionIcon variant="default" size="lg" onClick={help.open} aria-label="Keyboard shortcuts">
                <IconKeyboard size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <ThemeToggle />
            {/* The server's notifications and settings are an administrator's. */}
            {isAdmin && <NotificationsMenu />}
          </Group>
        </Group>
      </AppShell.Header>
      {/* Off-screen on phones while closed: inert keeps Tab and screen readers out of it. */}
      <AppShell.Navbar inert={!wide && !menuOpened}>
        <Sidebar
          email={email}
          items={navItemsFor(access.role)}
          onNavigate={menu.close}
          onSignOut={doSignOut}
        />
      </AppShell.Navbar>
      <AppShell.Main>
        {isAdmin && <MaintenanceBanner />}
        <Suspense fallback={<PageLoader />}>
          <AccessGate access={access}>
            <Outlet />
          </AccessGate>
        </Suspense>
      </AppShell.Main>
      <Suspense fallback={null}>
        {helpMounted && <HelpDialog opened={helpOpened} onClose={help.close} />}
        {paletteMounted && <SearchPalette />}
      </Suspense>
    </AppShell>
  );
}
