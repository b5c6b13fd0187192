import {
  IconActivity,
  IconApps,
  IconArrowForward,
  IconCertificate,
  IconFileText,
  IconLayoutDashboard,
  IconLifebuoy,
  IconList,
  IconMail,
  IconPlus,
  IconServer,
  IconSettings,
  IconShieldLock,
  IconTool,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';

const ICONS: Record<string, Icon> = {
  mail: IconMail,
  forward: IconArrowForward,
  settings: IconSettings,
  world: IconWorld,
  list: IconList,
  certificate: IconCertificate,
  plus: IconPlus,
  server: IconServer,
  apps: IconApps,
  shield: IconShieldLock,
  lifebuoy: IconLifebuoy,
  activity: IconActivity,
  tool: IconTool,
  dashboard: IconLayoutDashboard,
};

export function SearchIcon({ name, size = 18 }: { name: string; size?: number }) {
  const C = ICONS[name] ?? IconFileText;
  return <C size={size} aria-hidden />;
}
