import type { LiveSaveStep } from '@mailroom/contract/mail';
import { useCallback, useEffect, useRef, useState } from 'react';
import { subscribeServerEvents } from '../../api/job-events.ts';

/** A fresh id for one save: 16 hex digits (getRandomValues needs no secure context, unlike randomUUID). */
export function newSaveId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Follows this page's mail settings save on the events stream (`mail-save`, issue 22 #17): each
 * step as it becomes pending, running, passed, failed, skipped or not run. `begin()` answers the
 * id to send with the save and forgets the previous save's steps; events of other saves (another
 * tab, another administrator) and late ones (a lower `seq`) are left out.
 */
export function useMailSaveProgress(): { steps: LiveSaveStep[]; begin(): string } {
  const current = useRef<{ id: string; seq: number } | null>(null);
  const [steps, setSteps] = useState<LiveSaveStep[]>([]);
  useEffect(
    () =>
      subscribeServerEvents({
        mailSave: (p) => {
          const c = current.current;
          if (!c || p.saveId !== c.id || p.seq <= c.seq) return;
          c.seq = p.seq;
          setSteps(p.steps);
        },
      }),
    [],
  );
  const begin = useCallback(() => {
    const id = newSaveId();
    current.current = { id, seq: 0 };
    setSteps([]);
    return id;
  }, []);
  return { steps, begin };
}
