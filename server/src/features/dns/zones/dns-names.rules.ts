/**
 * Names in the database are relative to their zone and lower case ('' is the apex); host-name
 * values (MX, CNAME, NS, PTR, SRV targets) are fully qualified, lower case, without the final dot.
 */

/** The relative form of a record name, or null when the name lies outside the zone. */
export function toRelativeName(input: string, zone: string): string | null {
  const name = input.trim().toLowerCase();
  if (name === '' || name === '@') return '';
  const z = zone.toLowerCase();
  if (name.endsWith('.')) {
    const abs = name.slice(0, -1);
    if (abs === z) return '';
    return abs.endsWith('.' + z) ? abs.slice(0, -(z.length + 1)) : null;
  }
  if (name === z) return '';
  return name.endsWith('.' + z) ? name.slice(0, -(z.length + 1)) : name;
}

/** A host-name value made absolute: a name without a dot is taken as a name inside the zone. */
export function toTargetHost(input: string, zone: string): string {
  const v = input.trim().toLowerCase();
  if (v === '.' || v === '@') return v === '@' ? zone.toLowerCase() : '.';
  if (v.endsWith('.')) return v.slice(0, -1);
  return v.includes('.') ? v : `${v}.${zone.toLowerCase()}`;
}

/** The absolute name of a relative one. */
export function absoluteName(relative: string, zone: string): string {
  return relative === '' ? zone : `${relative}.${zone}`;
}

/** The relative name shown to people: '@' for the apex. */
export function displayName(relative: string): string {
  return relative === '' ? '@' : relative;
}

/** True when `host` is the zone's apex or a name below it. */
export function isInsideZone(host: string, zone: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const z = zone.toLowerCase();
  return h === z || h.endsWith('.' + z);
}
