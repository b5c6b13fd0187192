/** Domains assigned to a domain administrator (`admins.role = 'domain-admin'`, migration 0018). */
export interface AdminDomainTable {
  admin_id: number;
  /** A mail domain / DNS zone name, lower-case. */
  domain: string;
}

export interface DomainAdminTables {
  admin_domains: AdminDomainTable;
}
