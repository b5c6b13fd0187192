import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function MfaDashboardPage() {
  return (
    <NotBuiltYet
      title="Multi-Factor Authentication"
      breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'MFA Management' }]}
    />
  );
}
