import { dnsMessages } from '@mailroom/contract/dns';
import { ImportFlow } from '../../../components/import-flow/import-flow.tsx';
import { useImportRecords } from '../use-import-records.ts';

/** Import Records through the shared import flow: the spec's hint, file name, dry run, per-row results. */
export function RecordImport() {
  const importer = useImportRecords();
  return (
    <ImportFlow
      label="Import records"
      hint={dnsMessages.importHint}
      commitLabel="Import Records"
      doneTitle="Records imported"
      noun={['record', 'records']}
      importer={importer}
    />
  );
}
