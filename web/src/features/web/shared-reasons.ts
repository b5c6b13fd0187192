/**
 * Why fields are disabled, said once: a reason two or more fields of a section share (PHP-FPM
 * missing, say) goes above the section; a reason of one field stays under that field.
 */
export function sharedReasons(
  fields: readonly string[],
  reasons: Readonly<Record<string, string>>,
): { section: string[]; perField: Record<string, string> } {
  const count = new Map<string, number>();
  for (const f of fields) {
    const r = reasons[f];
    if (r) count.set(r, (count.get(r) ?? 0) + 1);
  }
  const section = [...count].filter(([, n]) => n >= 2).map(([r]) => r);
  const perField: Record<string, string> = {};
  for (const f of fields) {
    const r = reasons[f];
    if (r && !section.includes(r)) perField[f] = r;
  }
  return { section, perField };
}
