/**
 * Postfix's files: the lookup tables and their queries (postfix-maps), main.cf and master.cf (postfix-cf).
 */
export * from './postfix-maps.renderer.ts';
export * from './postfix-cf.renderer.ts';
