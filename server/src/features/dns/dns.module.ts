import { registerDaemonSpecs } from '../../host/daemon-specs.ts';
import { dnsDaemonSpecs } from './dns-daemon-specs.ts';

/** Hands named to host/'s service control (local mode runs it). */
export function registerDnsDaemons(): void {
  registerDaemonSpecs('dns', (host, config) => dnsDaemonSpecs(host, config));
}
