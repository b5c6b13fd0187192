export function newestMtime(target: string): number;
export function installReason(root: string): string | null;
export const WEB_SOURCES: string[];
export function webBuildReason(root: string): string | null;
