import { errorMessage } from '../../api/client.ts';
import { confirmAction, type ConfirmOptions } from '../../components/confirm-action.ts';
import { notify } from '../../lib/notifications-store.ts';

/** Confirm (when asked), run, tell the outcome, refresh the MFA lists. */
export async function runAction(opts: {
  confirm?: ConfirmOptions;
  run: () => Promise<unknown>;
  success: string;
  after: () => unknown;
}): Promise<void> {
  if (opts.confirm && !(await confirmAction(opts.confirm))) return;
  try {
    const res = (await opts.run()) as { message?: string } | undefined;
    notify({ type: 'success', title: opts.success, message: res?.message ?? opts.success });
  } catch (err) {
    notify({ type: 'error', title: 'Action failed', message: errorMessage(err) });
  } finally {
    await opts.after();
  }
}
