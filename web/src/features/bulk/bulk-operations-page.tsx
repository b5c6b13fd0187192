import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function BulkOperationsPage() {
  return (
    <NotBuiltYet
      title="Bulk Operations"
      breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'Bulk Operations' }]}
    />
  );
}
