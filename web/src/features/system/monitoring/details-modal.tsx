import { Code, Modal, Table } from '@mantine/core';

export interface DetailsModalProps {
  title: string;
  rows: [string, React.ReactNode][] | null;
  onClose: () => void;
}

/** A row's fields, label and value, in a modal (the tabs' "view details"). */
export function DetailsModal({ title, rows, onClose }: DetailsModalProps) {
  return (
    <Modal opened={rows !== null} onClose={onClose} title={title} size="lg" centered>
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {(rows ?? []).map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w={160} style={{ verticalAlign: 'top' }}>
                {k}
              </Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {typeof v === 'string' && v.length > 60 ? <Code block>{v}</Code> : v}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
