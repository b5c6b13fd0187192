import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function WebDashboardPage() {
  return (
    <NotBuiltYet
      title="Web Management"
      breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'Web Management' }]}
    />
  );
}
