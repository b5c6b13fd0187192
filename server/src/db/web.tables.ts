import type { Generated } from 'kysely';

/** One virtual host (issue 19). The fields the list filters and sorts by are columns; the rest JSON. */
export interface WebVhostTable {
  id: Generated<number>;
  /** Punycode, lower case; unique. */
  domain: string;
  /** Lower-cased domain and document root: what `?q=` matches. */
  search: string;
  document_root: string;
  status: string;
  /** JSON of every other VirtualHostValues field (contract/src/web/vhosts.ts). */
  fields: string;
  created_at: string;
  /** ISO; the list's Last Modified. */
  updated_at: string;
}

/** Every host name a virtual host answers to (server name, domain, aliases): one owner per name. */
export interface WebVhostNameTable {
  name: string;
  vhost_id: number;
}

/** The one row of web server settings (id 1): JSON of WebServerSettings. */
export interface WebSettingsTable {
  id: number;
  settings: string;
  updated_at: string;
}

export interface WebTables {
  web_vhosts: WebVhostTable;
  web_vhost_names: WebVhostNameTable;
  web_settings: WebSettingsTable;
}
