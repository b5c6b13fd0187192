/**
 * One change counter per listed table, raised by database triggers in the same transaction as
 * every insert, update or delete (whichever process or program writes: this server, another
 * instance, Dovecot's quota updates). List reads use it as their ETag validator.
 */
export interface ListVersionTable {
  name: string;
  version: number;
}

export interface PagingTables {
  list_versions: ListVersionTable;
}
