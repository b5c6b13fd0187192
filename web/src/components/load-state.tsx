import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface LoadStateProps {
  loading: boolean;
  error: string | null;
  errorTitle: string;
  loadingLabel?: string;
  onRetry?: () => void;
  onDismiss?: () => void;
  children?: ReactNode;
}

/** Spinner while loading; an error alert with Try Again and Dismiss; the content otherwise. */
export function LoadState({
  loading,
  error,
  errorTitle,
  loadingLabel = 'Loading…',
  onRetry,
  onDismiss,
  children,
}: LoadStateProps) {
  if (loading) {
    return (
      <Center py="xl" role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader aria-hidden />
          <Text c="dimmed" size="sm">
            {loadingLabel}
          </Text>
        </Stack>
      </Center>
    );
  }
  if (error) {
    return (
      <Alert
        color="red"
        variant="light"
        title={errorTitle}
        icon={<IconAlertCircle aria-hidden />}
        role="alert"
      >
        <Text size="sm">{error}</Text>
        {(onRetry || onDismiss) && (
          <Group gap="xs" mt="sm">
            {onRetry && (
              <Button size="xs" color="red" onClick={onRetry}>
                Try Again
              </Button>
            )}
            {onDismiss && (
              <Button size="xs" variant="default" onClick={onDismiss}>
                Dismiss
              </Button>
            )}
          </Group>
        )}
      </Alert>
    );
  }
  return <>{children}</>;
}
