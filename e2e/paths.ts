import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CHROMIUM = '/usr/bin/chromium';
export const OUTPUT_DIR = path.join(import.meta.dirname, 'test-output');
export const SCREENSHOT_DIR = path.join(OUTPUT_DIR, 'screenshots');
export const SERVER_LOG_DIR = path.join(OUTPUT_DIR, 'server-logs');
