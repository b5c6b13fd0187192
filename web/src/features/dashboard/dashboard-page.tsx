import { Card, Group, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useAuth } from '../../api/auth-store.ts';
import { PageHeader } from '../../components/page-header.tsx';
import classes from './dashboard.module.css';
import { FEATURE_CARDS } from './feature-cards.ts';
import { SystemStatusCard } from './system-status-card.tsx';

export default function DashboardPage() {
  const { email } = useAuth();
  return (
    <>
      <PageHeader title="Dashboard" subtitle={email ? `Signed in as ${email}` : undefined} />
      <SystemStatusCard />
      <Title order={2} size="h4" mt="xl" mb="md">
        Management Areas
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {FEATURE_CARDS.map((f) => (
          <Card
            key={f.to}
            component={Link}
            to={f.to}
            withBorder
            padding="lg"
            radius="md"
            className={classes.featureCard}
            aria-label={f.title}
          >
            <Group wrap="nowrap" align="flex-start">
              <ThemeIcon color={f.color} variant="light" size={44} radius="md" aria-hidden>
                <f.icon size={24} />
              </ThemeIcon>
              <div>
                <Text fw={600}>{f.title}</Text>
                <Text size="sm" c="dimmed">
                  {f.description}
                </Text>
              </div>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
