import { Badge, Group, Kbd, Modal, Stack, Table, Text } from '@mantine/core';
import { Fragment } from 'react';
import { alternativeLabel, comboLabel, SHORTCUTS, type ShortcutCategory } from '../shortcuts/shortcuts.ts';

const CATEGORY_TITLE: Record<ShortcutCategory, string> = {
  navigation: 'Navigation',
  actions: 'Actions',
  search: 'Search',
  system: 'System',
};

function Keys({ label }: { label: string }) {
  const parts = label.split('+');
  return (
    <Group gap={4} wrap="nowrap">
      {parts.map((p, i) => (
        <Fragment key={`${p}-${i}`}>
          {i > 0 && (
            <Text span size="xs">
              +
            </Text>
          )}
          <Kbd size="xs">{p}</Kbd>
        </Fragment>
      ))}
    </Group>
  );
}

/** Spec §2/§9 keyboard-shortcuts help: '?' opens it, Esc closes it. */
export function HelpDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const categories = Object.keys(CATEGORY_TITLE) as ShortcutCategory[];
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard Shortcuts" size="lg" centered>
      <Stack gap="md">
        {categories.map((cat) => (
          <div key={cat}>
            <Text fw={600} size="sm" mb={4}>
              {CATEGORY_TITLE[cat]}
            </Text>
            <Table verticalSpacing={4} withRowBorders={false}>
              <Table.Tbody>
                {SHORTCUTS.filter((s) => s.category === cat).map((s) => {
                  const alt = alternativeLabel(s);
                  return (
                    <Table.Tr key={s.id}>
                      <Table.Td w={210}>
                        <Group gap={6} wrap="wrap">
                          <Keys label={comboLabel(s)} />
                          {alt && (
                            <>
                              <Text span size="xs" c="dimmed">
                                or
                              </Text>
                              <Text span size="xs" aria-label={alt}>
                                <Kbd size="xs">G</Kbd> then <Kbd size="xs">{alt.slice(-1)}</Kbd>
                              </Text>
                            </>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{s.description}</Text>
                        {s.browserNote && (
                          <Badge size="xs" variant="light" color="gray" mt={2} tt="none">
                            {s.browserNote}; use {alt}
                          </Badge>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </div>
        ))}
        <Text size="xs" c="dimmed">
          Shortcuts are ignored while you type in a field. The “G then …” keys work in every browser.
        </Text>
      </Stack>
    </Modal>
  );
}
