import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function SystemPage() {
  return (
    <NotBuiltYet
      title="System Administration"
      breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'System Administration' }]}
    />
  );
}
