import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function SslDashboardPage() {
  return (
    <NotBuiltYet
      title="SSL Management"
      breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'SSL Management' }]}
    />
  );
}
