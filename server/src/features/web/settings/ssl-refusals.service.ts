import { type SslSettings, sslSettingsMessages } from '@mailroom/contract/ssl';
import { webMessages } from '@mailroom/contract/web/vhosts';
import { machineFileExists, readMachineFile } from '../../../host/apache-host.ts';
import { MODULES, modulePath } from '../stack/apache-modules.ts';

/**
 * SSL settings the installed Apache cannot honour (issue 19), field -> the refusal: the module to
 * install, or the file Apache could not read. The SSL area asks before it saves (wired in app.ts).
 */
export async function sslSettingsRefusals(s: SslSettings): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (s.enableHttp2 && !(await machineFileExists(modulePath(MODULES.http2))))
    out.enableHttp2 = webMessages.moduleMissing('mod_http2', MODULES.http2.package);
  if (s.enableSslClientCertificates && s.enableSslClientVerification && s.sslClientCertificatePath) {
    const p = s.sslClientCertificatePath;
    const pem = /^\/[^"\\\r\n\0]*$/.test(p) ? await readMachineFile(p) : null;
    if (!pem || !pem.includes('-----BEGIN CERTIFICATE-----'))
      out.sslClientCertificatePath = sslSettingsMessages.clientCaUnreadable(p);
  }
  return out;
}
