import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AliasTable } from './alias-table.tsx';

describe('AliasTable', () => {
  it('offers Delete for an alias of the administrator, not for a required system alias', () => {
    render(
      <MantineProvider>
        <AliasTable
          aliases={[
            { source: 'info@example.com', destination: 'a@example.com', status: 'active', system: false },
            {
              source: 'postmaster@example.com',
              destination: 'admin@example.com',
              status: 'active',
              system: true,
            },
          ]}
          onEdit={() => undefined}
          onDelete={() => undefined}
          deleting={null}
          emptyText="No aliases found"
        />
      </MantineProvider>,
    );
    // Table and phone cards both render the rows.
    expect(screen.getAllByRole('button', { name: 'Delete info@example.com' }).length).toBeGreaterThan(0);
    expect(screen.queryAllByRole('button', { name: 'Delete postmaster@example.com' })).toHaveLength(0);
    expect(screen.getAllByRole('button', { name: 'Edit postmaster@example.com' }).length).toBeGreaterThan(0);
  });
});
