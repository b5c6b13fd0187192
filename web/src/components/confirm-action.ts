import { modals } from '@mantine/modals';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
}

/** Asks in a modal; resolves true on confirm, false on cancel or close. */
export function confirmAction({
  title,
  message,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  danger = false,
}: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (v: boolean) => {
      if (settled) return;
      settled = true;
      resolve(v);
    };
    modals.openConfirmModal({
      title,
      centered: true,
      children: message,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: { color: danger ? 'red' : undefined },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}

/** Asks before deleting: `title` ('Delete Alias') and `message` in a modal whose red button says Delete. */
export function confirmDelete(title: string, message: string): Promise<boolean> {
  return confirmAction({ title, message, confirmLabel: 'Delete', danger: true });
}
