/** What every CSV import answers (aliases, mailboxes, DNS records), on a dry run or for real. */
export interface ImportResult {
  imported: number;
  skipped: number;
  /** Refused rows: the file's line number (header = 1) and the reason. */
  errors: { row: number; message: string }[];
  dryRun: boolean;
  /** Domains the import created (or, on a dry run, would create). */
  newDomains?: string[] | undefined;
}

/** Singular and plural of what a row becomes: ['alias', 'aliases']. */
export type ImportNoun = readonly [string, string];

const plural = (n: number, [one, many]: ImportNoun) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** One sentence for the result, on the screen and in the one notification: same words everywhere. */
export function importSummary(r: ImportResult, noun: ImportNoun): string {
  const verb = r.dryRun ? 'would be imported' : 'imported';
  const errors = r.errors.length;
  return `${plural(r.imported, noun)} ${verb}, ${r.skipped.toLocaleString()} skipped, ${errors.toLocaleString()} error${errors === 1 ? '' : 's'}.`;
}

/** success: every row in; warning: some in, some refused; error: nothing imported and rows refused. */
export function importTone(r: ImportResult): 'success' | 'warning' | 'error' {
  if (r.errors.length === 0) return 'success';
  return r.imported > 0 ? 'warning' : 'error';
}
