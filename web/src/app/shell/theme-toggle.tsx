import { ActionIcon, Tooltip, useMantineColorScheme } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { fromMantine, nextTheme, toMantine, type ThemeChoice } from '../theme/theme-choice.ts';

const ICON = { light: IconSun, dark: IconMoon, system: IconDeviceDesktop } as const;
const LABEL: Record<ThemeChoice, string> = { light: 'Light', dark: 'Dark', system: 'System' };

/** Cycles light → dark → system → light (spec §4). */
export function ThemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current = fromMantine(colorScheme);
  const next = nextTheme(current);
  const Icon = ICON[current];
  const label = `Theme: ${LABEL[current]} (switch to ${LABEL[next]})`;
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="default"
        size="lg"
        onClick={() => setColorScheme(toMantine(next))}
        aria-label={label}
        data-theme={current}
      >
        <Icon size={18} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
