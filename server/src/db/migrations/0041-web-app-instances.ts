import type { Kysely } from 'kysely';

/**
 * Web application instances (issue 20, "instances, balancer, scaling"): the loopback ports of every
 * running instance of the live release (JSON array, first = `running_port`). The app's virtual host
 * proxies through mod_proxy_balancer over them when Enable Load Balancing is on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('web_apps')
    .addColumn('instance_ports', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('web_apps').dropColumn('instance_ports').execute();
}
