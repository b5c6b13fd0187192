import type { DeployLogLine } from '@mailroom/contract/web';
import { Box, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

const COLOR: Record<DeployLogLine['stream'], string | undefined> = {
  info: 'var(--mantine-color-blue-text)',
  stdout: undefined,
  stderr: 'var(--mantine-color-red-text)',
};

/**
 * The lines of a deploy log, newest at the bottom; it keeps to the bottom while the reader is
 * there, and stays put when they scrolled up to read.
 */
export function DeployLogView({
  lines,
  empty,
  label = 'Deploy log',
}: {
  lines: readonly DeployLogLine[];
  empty: string;
  label?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [lines.length]);
  return (
    <Box
      ref={box}
      role="log"
      aria-label={label}
      aria-live="polite"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
      style={{
        maxHeight: 360,
        minHeight: 120,
        overflow: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
        background: 'var(--mantine-color-default-hover)',
        padding: 'var(--mantine-spacing-xs)',
      }}
    >
      {lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        lines.map((l) => (
          <Text
            key={l.seq}
            component="div"
            size="xs"
            ff="monospace"
            data-seq={l.seq}
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', color: COLOR[l.stream] }}
          >
            {l.text}
          </Text>
        ))
      )}
    </Box>
  );
}
