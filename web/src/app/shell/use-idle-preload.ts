import { useEffect } from 'react';

/**
 * Loads these modules (their chunks) once the browser is first idle after the shell mounted: not
 * while the first screen is being built, and before anyone needs them.
 */
export function useIdlePreload(loaders: readonly (() => Promise<unknown>)[]): void {
  useEffect(() => {
    const load = () => {
      for (const l of loaders) void l().catch(() => undefined);
    };
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(load);
      return () => window.cancelIdleCallback(id);
    }
    const t = setTimeout(load, 0);
    return () => clearTimeout(t);
  }, [loaders]);
}
