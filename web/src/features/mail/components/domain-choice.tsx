import { Checkbox, Select, Stack, Text } from '@mantine/core';
import { useIsFullAdmin } from '../../../api/use-full-admin.ts';
import { useMailDomains } from '../use-mail-domains.ts';

/** The domain part of a typed address (lower-cased), or '' while there is none. */
export const domainOfAddress = (address: string): string => {
  const at = address.lastIndexOf('@');
  return at === -1
    ? ''
    : address
        .slice(at + 1)
        .trim()
        .toLowerCase();
};

/** The address with its domain part replaced (or added). */
export const withDomain = (address: string, domain: string): string => {
  const at = address.lastIndexOf('@');
  return `${at === -1 ? address.trim() : address.slice(0, at)}@${domain}`;
};

const LOOKS_LIKE_DOMAIN = /^([a-z0-9-]+\.)+[a-z]{2,}$/;

export interface DomainChoiceProps {
  /** The address typed in the form's Email (or Source Email) field. */
  address: string;
  onPick: (domain: string) => void;
  createDomain: boolean;
  onCreateDomain: (create: boolean) => void;
}

/**
 * New mail domains are deliberate: a picker of the existing domains (it fills the address's
 * domain part), and for a domain that is not a mail domain yet, an explicit "create it" box, off
 * until ticked (the server refuses the unknown domain otherwise).
 */
export function DomainChoice({ address, onPick, createDomain, onCreateDomain }: DomainChoiceProps) {
  const domains = useMailDomains();
  // Creating a domain is an administrator's (a domain administrator's call answers 403).
  const isAdmin = useIsFullAdmin();
  const names = (domains.data ?? []).map((d) => d.domain);
  const typed = domainOfAddress(address);
  const known = typed !== '' && names.includes(typed);
  const isNew = !!domains.data && LOOKS_LIKE_DOMAIN.test(typed) && !known;
  return (
    <Stack gap={6}>
      <Select
        label="Domain"
        placeholder={names.length ? 'Pick a mail domain' : 'No mail domain yet'}
        data={names}
        value={known ? typed : null}
        onChange={(v) => v && onPick(v)}
        searchable
        nothingFoundMessage="No such mail domain"
        comboboxProps={{ withinPortal: true }}
      />
      {isNew && !isAdmin && (
        <Text size="xs" c="dimmed">
          {typed} is not one of your mail domains.
        </Text>
      )}
      {isNew && isAdmin && (
        <Checkbox
          checked={createDomain}
          onChange={(e) => onCreateDomain(e.currentTarget.checked)}
          label={`Create the new mail domain ${typed}`}
          description="It gets a DKIM key and DNS records. Leave unticked if the domain is a typo."
        />
      )}
      {known && (
        <Text size="xs" c="dimmed">
          {typed} is a mail domain.
        </Text>
      )}
    </Stack>
  );
}
