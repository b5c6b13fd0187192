import { webMessages, type VirtualHost } from '@mailroom/contract/web';
import { DeleteWithFilesDialog } from './delete-with-files-dialog.tsx';

/** Delete's confirmation (spec 3 §2.2 text), which also asks whether to keep the site's files. */
export function VhostDeleteDialog({
  vhost,
  onCancel,
  onConfirm,
}: {
  vhost: VirtualHost | null;
  onCancel: () => void;
  onConfirm: (vhost: VirtualHost, keepFiles: boolean) => void;
}) {
  return (
    <DeleteWithFilesDialog
      title="Delete Virtual Host"
      item={vhost}
      itemKey={(v) => v.domain}
      text={(v) => ({
        question: webMessages.deleteConfirm(v.domain),
        keepLabel: "Keep the site's files",
        path: v.documentRoot,
        what: 'the virtual host',
      })}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
