/** A progress save of a reply being generated: its text so far (undefined: unchanged), and whether its lease is renewed. */
export interface ProgressSave {
  readonly id: string;
  /** The reply's actor: every statement on a per-actor table names it. */
  readonly actor: string;
  readonly content?: string;
  /**
   * The lease is renewed when due (a third of REPLY_LEASE_MS after the last renewal), not by
   * every save: an unchanged lease keeps the save off the lease index (and, on PostgreSQL, lets
   * it be a HOT update).
   */
  readonly renewLease: boolean;
}
