/**
 * The mail stack's files: rendered (mail-render), checked before they go live (mail-check), and the self-signed fallback certificate (fallback-certificate).
 */
export * from './mail-render.service.ts';
export * from './mail-check.service.ts';
export * from './fallback-certificate.service.ts';
