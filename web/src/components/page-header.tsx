import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  to?: string;
}

export interface PageHeaderProps {
  title: string;
  breadcrumbs?: Crumb[];
  subtitle?: ReactNode;
  actions?: ReactNode;
}

/** Breadcrumb (links, the last one plain text), title, optional subtitle and header buttons. */
export function PageHeader({ title, breadcrumbs, subtitle, actions }: PageHeaderProps) {
  return (
    <Stack gap="xs" mb="lg" data-page-header>
      {breadcrumbs && breadcrumbs.length > 0 && (
        <Breadcrumbs component="nav" aria-label="Breadcrumb" separatorMargin={6}>
          {breadcrumbs.map((c, i) =>
            c.to && i < breadcrumbs.length - 1 ? (
              <Anchor key={`${c.label}-${i}`} component={Link} to={c.to} size="sm">
                {c.label}
              </Anchor>
            ) : (
              <Text
                key={`${c.label}-${i}`}
                size="sm"
                c="dimmed"
                aria-current={i === breadcrumbs.length - 1 ? 'page' : undefined}
              >
                {c.label}
              </Text>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm" mt={4}>
              {subtitle}
            </Text>
          )}
        </div>
        {actions && (
          <Group gap="xs" wrap="wrap">
            {actions}
          </Group>
        )}
      </Group>
    </Stack>
  );
}
