import { Card, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SectionCardProps {
  /** The card's heading; `titleId` names the section by it. */
  title: string;
  titleId: string;
  /** Shown (dimmed) in place of the content when set: there is nothing to list. */
  emptyText?: string | null;
  /** Fills the grid cell's height (cards side by side line up). */
  fill?: boolean;
  children: ReactNode;
}

/** A titled card of the mail dashboard. */
export function SectionCard({ title, titleId, emptyText, fill, children }: SectionCardProps) {
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      h={fill ? '100%' : undefined}
      component="section"
      aria-labelledby={titleId}
    >
      <Title order={2} size="h4" mb="sm" id={titleId}>
        {title}
      </Title>
      {emptyText ? (
        <Text c="dimmed" size="sm">
          {emptyText}
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}
