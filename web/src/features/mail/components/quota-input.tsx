import { NumberInput, type NumberInputProps } from '@mantine/core';

/** Quota in MB (1 MB = 1024² bytes); an empty field means unlimited. */
export function QuotaInput(props: Omit<NumberInputProps, 'label' | 'description'>) {
  return (
    <NumberInput
      label="Quota (MB)"
      description="Leave empty for unlimited"
      placeholder="Unlimited"
      min={0}
      allowNegative={false}
      decimalScale={2}
      {...props}
    />
  );
}
