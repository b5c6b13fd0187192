import { registerDaemonSpecs } from '../../host/daemon-specs.ts';
import { mailDaemonSpecs } from './stack/mail.daemons.ts';

/** Hands Postfix, Dovecot and rspamd to host/'s service control (local mode runs them). */
export function registerMailDaemons(): void {
  registerDaemonSpecs('mail', mailDaemonSpecs);
}
