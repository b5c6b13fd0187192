import { Button, Divider, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { isNavActive, type NavItem } from './nav-items.ts';

export interface SidebarProps {
  email: string | null;
  /** The entries the signed-in account can use (see navItemsFor). */
  items: readonly NavItem[];
  onNavigate: () => void;
  onSignOut: () => void;
}

/** The navigation sidebar; on phones it is the burger menu. Shows who is signed in. */
export function Sidebar({ email, items, onNavigate, onSignOut }: SidebarProps) {
  const { pathname } = useLocation();
  return (
    <Stack h="100%" gap={0} component="nav" aria-label="Main navigation">
      <ScrollArea style={{ flex: 1 }} type="auto">
        <Stack gap={2} p="sm">
          {items.map((item) => {
            const active = isNavActive(item, pathname);
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                leftSection={<item.icon size={18} aria-hidden />}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={onNavigate}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                {...(item.children ? { opened: active } : {})}
              >
                {active &&
                  item.children?.map((c) => {
                    const here = pathname.replace(/\/+$/, '') === c.to;
                    return (
                      <NavLink
                        key={c.to}
                        component={Link}
                        to={c.to}
                        label={c.label}
                        active={here}
                        aria-current={here ? 'page' : undefined}
                        onClick={onNavigate}
                        style={{ borderRadius: 'var(--mantine-radius-md)' }}
                      />
                    );
                  })}
              </NavLink>
            );
          })}
        </Stack>
      </ScrollArea>
      <Divider />
      <Stack gap="xs" p="sm">
        <Group gap="xs" wrap="nowrap">
          <IconUserCircle size={20} aria-hidden />
          <Text size="sm" truncate title={email ?? undefined} data-testid="signed-in-email">
            {email ?? 'Signed in'}
          </Text>
        </Group>
        <Button
          variant="default"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={onSignOut}
          fullWidth
        >
          Sign out
        </Button>
      </Stack>
    </Stack>
  );
}
