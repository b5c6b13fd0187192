import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { errorMessage } from '../api/client.ts';

/** A page that crashed (or whose code failed to download) shows this inside the shell. */
export function PageError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <Alert
      color="red"
      variant="light"
      title="This page failed to load"
      icon={<IconAlertCircle aria-hidden />}
      role="alert"
    >
      <Text size="sm">{message}</Text>
      <Group mt="sm">
        <Button size="xs" color="red" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Group>
    </Alert>
  );
}
