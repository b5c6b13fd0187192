import type { Kysely } from 'kysely';
import { withId } from '../column-types.ts';

/**
 * Web applications (issue 20): each application (its virtual host in web_vhosts), its releases
 * (commit, build log, environment sealed at rest, vhost config hash) and the deploy log lines of
 * its jobs, numbered so a console that reloads resumes where it stopped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('web_apps'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('vhost_id', 'integer', (c) => c.notNull().references('web_vhosts.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('search', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('env_sealed', 'text', (c) => c.notNull())
    .addColumn('env_names', 'text', (c) => c.notNull())
    .addColumn('status_message', 'text', (c) => c.notNull())
    .addColumn('current_release_id', 'integer')
    .addColumn('running_port', 'integer')
    .addColumn('deploy_job_id', 'integer')
    .addColumn('last_deployed', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('web_apps_status_name_idx')
    .on('web_apps')
    .columns(['status', 'name'])
    .execute();
  await withId(db, db.schema.createTable('web_app_releases'))
    .addColumn('app_id', 'integer', (c) => c.notNull().references('web_apps.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('source_release_id', 'integer')
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('commit_sha', 'text')
    .addColumn('path', 'text')
    .addColumn('port', 'integer')
    .addColumn('vhost_hash', 'text')
    .addColumn('env_sealed', 'text', (c) => c.notNull())
    .addColumn('env_names', 'text', (c) => c.notNull())
    .addColumn('disk_usage', 'integer', (c) => c.notNull())
    .addColumn('timings', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('build_log', 'text', (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .addColumn('started_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addUniqueConstraint('web_app_releases_number_uq', ['app_id', 'number'])
    .execute();
  await db.schema
    .createTable('web_app_log_lines')
    .addColumn('job_id', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('app_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('web_app_log_lines_pk', ['job_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('web_app_log_lines_app_idx')
    .on('web_app_log_lines')
    .columns(['app_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_app_log_lines').execute();
  await db.schema.dropTable('web_app_releases').execute();
  await db.schema.dropTable('web_apps').execute();
}
