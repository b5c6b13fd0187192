import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

export interface ActionErrorAlertProps {
  title: string;
  message: string;
  onRetry?: () => void;
  onDismiss: () => void;
  retrying?: boolean;
}

/** A failed create/delete with the spec's fallback title, its reason, Try Again and Dismiss. */
export function ActionErrorAlert({
  title,
  message,
  onRetry,
  onDismiss,
  retrying = false,
}: ActionErrorAlertProps) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle aria-hidden />} role="alert">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {message}
      </Text>
      <Group gap="xs" mt="sm">
        {onRetry && (
          <Button size="xs" color="red" onClick={onRetry} loading={retrying}>
            Try Again
          </Button>
        )}
        <Button size="xs" variant="default" onClick={onDismiss}>
          Dismiss
        </Button>
      </Group>
    </Alert>
  );
}
