import { Text, Textarea, type TextareaProps } from '@mantine/core';
import { useId, useState, type ChangeEvent } from 'react';

export interface CountedTextareaProps extends TextareaProps {
  maxLength?: number;
}

/** A text area that shows 'x/y' characters under it when a maximum length is set. */
export function CountedTextarea({ maxLength, value, defaultValue, onChange, ...rest }: CountedTextareaProps) {
  const counterId = useId();
  const [ownLength, setOwnLength] = useState(() => String(defaultValue ?? '').length);
  const length = value !== undefined ? String(value).length : ownLength;

  const handleChange = (e: ChangeEvent<HTMLTextAreaElement>) => {
    if (value === undefined) setOwnLength(e.currentTarget.value.length);
    onChange?.(e);
  };

  return (
    <div>
      <Textarea
        {...rest}
        value={value}
        defaultValue={defaultValue}
        maxLength={maxLength}
        onChange={handleChange}
        aria-describedby={maxLength !== undefined ? counterId : undefined}
      />
      {maxLength !== undefined && (
        <Text
          id={counterId}
          size="xs"
          c={length >= maxLength ? 'red' : 'dimmed'}
          ta="right"
          mt={4}
          aria-live="polite"
        >
          {length}/{maxLength}
        </Text>
      )}
    </div>
  );
}
