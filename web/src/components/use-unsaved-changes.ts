import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { confirmAction } from './confirm-action.ts';

export const UNSAVED_TITLE = 'Unsaved changes';
export const UNSAVED_MESSAGE = 'You have unsaved changes. Leave this page and lose them?';

/**
 * Guards a form with unsaved changes: a move to another page of the console (link, sidebar,
 * keyboard shortcut, Back) asks first, and so does closing or reloading the tab (the browser's own
 * beforeunload prompt). Pass `dirty` from the form; nothing is asked while it is false.
 */
export function useUnsavedChanges(dirty: boolean): void {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  const asking = useRef(false);

  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    void confirmAction({
      title: UNSAVED_TITLE,
      message: UNSAVED_MESSAGE,
      confirmLabel: 'Leave page',
      cancelLabel: 'Stay',
      danger: true,
    }).then((leave) => {
      asking.current = false;
      if (leave) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers only ask when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
