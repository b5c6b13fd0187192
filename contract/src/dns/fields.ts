import { requiredString } from '../validators.ts';
import { dnsMessages } from './constants.ts';
import { isHostName } from './value-checks.ts';

/** A host name field (zones' name servers, the settings' host names); not re-exported by the index. */
export const hostField = (label: string) =>
  requiredString(label)
    .max(254, dnsMessages.host(label))
    .refine((v) => isHostName(v), dnsMessages.host(label));
