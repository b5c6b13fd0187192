import type { WebCapabilities } from '@mailroom/contract/web';

/**
 * The state of the module that enforces request rate limits, as the screens show it: which one,
 * from which Debian package, whether it is installed and loaded (issue 19: "show the module's state").
 */
export function rateLimitModuleState(caps: WebCapabilities): string {
  const name = caps.rateLimitModule.name;
  const m = caps.modules.find((x) => x.name === name);
  const label = `mod_${name}`;
  if (!m) return `Enforced by ${label}.`;
  const state = !m.installed
    ? 'not installed'
    : m.enabled
      ? 'installed and loaded'
      : 'installed, not loaded yet';
  return `Enforced by ${label} (${m.package}): ${state}.`;
}
