import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function SystemManagementPage() {
  return (
    <NotBuiltYet
      title="System Management"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'System Administration', to: '/system' },
        { label: 'Management' },
      ]}
    />
  );
}
