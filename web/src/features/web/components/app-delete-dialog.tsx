import { appMessages, type WebApplicationSummary } from '@mailroom/contract/web';
import { DeleteWithFilesDialog } from './delete-with-files-dialog.tsx';

/** Delete's confirmation (spec 3 §2.3 text), which also asks whether to keep the release folders. */
export function AppDeleteDialog({
  app,
  onCancel,
  onConfirm,
}: {
  app: WebApplicationSummary | null;
  onCancel: () => void;
  onConfirm: (app: WebApplicationSummary, keepFiles: boolean) => void;
}) {
  return (
    <DeleteWithFilesDialog
      title="Delete Web Application"
      item={app}
      itemKey={(a) => a.name}
      text={(a) => ({
        question: appMessages.deleteConfirm(a.name),
        note: `Its processes are stopped and its virtual host ${a.domain} is deleted.`,
        keepLabel: 'Keep the release folders',
        path: a.deploymentPath,
        what: 'the application',
      })}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
