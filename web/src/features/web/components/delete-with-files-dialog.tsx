import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/** What the dialog says of the item being deleted and of its files on disk. */
export interface DeleteWithFilesText {
  /** The spec's confirmation question. */
  question: string;
  /** A second line on what else goes with it. */
  note?: ReactNode;
  keepLabel: string;
  /** The folder kept or deleted with it. */
  path: string;
  /** "the virtual host", "the application". */
  what: string;
}

/**
 * A delete confirmation that also asks whether to keep the item's files on disk (kept unless
 * unticked): the virtual host and web application deletes share it.
 */
export function DeleteWithFilesDialog<T>({
  title,
  item,
  itemKey,
  text,
  onCancel,
  onConfirm,
}: {
  title: string;
  item: T | null;
  itemKey: (item: T) => string;
  text: (item: T) => DeleteWithFilesText;
  onCancel: () => void;
  onConfirm: (item: T, keepFiles: boolean) => void;
}) {
  return (
    <Modal opened={item !== null} onClose={onCancel} title={title} centered>
      {item !== null && (
        <Body
          key={itemKey(item)}
          text={text(item)}
          onCancel={onCancel}
          onConfirm={(k) => onConfirm(item, k)}
        />
      )}
    </Modal>
  );
}

function Body({
  text,
  onCancel,
  onConfirm,
}: {
  text: DeleteWithFilesText;
  onCancel: () => void;
  onConfirm: (keepFiles: boolean) => void;
}) {
  const [keepFiles, setKeepFiles] = useState(true);
  return (
    <Stack gap="md">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {text.question}
      </Text>
      {text.note && (
        <Text size="sm" c="dimmed">
          {text.note}
        </Text>
      )}
      <Checkbox
        label={text.keepLabel}
        description={keepFiles ? `${text.path} stays on disk.` : `${text.path} is deleted with ${text.what}.`}
        checked={keepFiles}
        onChange={(e) => setKeepFiles(e.currentTarget.checked)}
      />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" onClick={() => onConfirm(keepFiles)}>
          Delete
        </Button>
      </Group>
    </Stack>
  );
}
