import { Loader, Select, type SelectProps } from '@mantine/core';
import type { ReactNode } from 'react';

export interface LabelledSelectProps extends Omit<SelectProps, 'description' | 'leftSection'> {
  label: ReactNode;
  helpText?: ReactNode;
  loading?: boolean;
  icon?: ReactNode;
}

/** The spec's dropdown: label, placeholder, help text, error text, loading indicator, left icon. */
export function LabelledSelect({
  helpText,
  loading = false,
  icon,
  rightSection,
  disabled,
  ...rest
}: LabelledSelectProps) {
  return (
    <Select
      {...rest}
      description={helpText}
      leftSection={icon}
      disabled={disabled}
      rightSection={loading ? <Loader size="xs" aria-label="Loading options" /> : rightSection}
      aria-busy={loading || undefined}
    />
  );
}
