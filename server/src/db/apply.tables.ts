/** The last apply of each target (mail, dns, …): what was tried, and whether it is live. */
export interface ApplyOutcomeTable {
  target: string;
  /** applied: live; failed: saved but not live (the last good files are in place); pending: running. */
  state: string;
  /** One sentence for the console. */
  message: string;
  /** The checker's or reload command's own words. */
  output: string;
  /** The step that failed: prove, swap, reload, commit; null when applied. */
  step: string | null;
  /** Files written and removed by the last apply (JSON array of system paths). */
  changed: string;
  at: string;
  /** When this target's files last went live. */
  applied_at: string | null;
  actor: string | null;
}

export interface PipelineTables {
  apply_outcomes: ApplyOutcomeTable;
}
