import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import classes from './refresh-button.module.css';

/** The header's Refresh (spec 3 §2): disabled, with a spinning icon, while loading. */
export function RefreshButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  return (
    <Button
      variant="default"
      leftSection={<IconRefresh size={16} aria-hidden className={loading ? classes.spin : undefined} />}
      onClick={onClick}
      disabled={loading}
      aria-busy={loading || undefined}
    >
      Refresh
    </Button>
  );
}
