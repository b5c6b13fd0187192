import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function MfaManagementPage() {
  return (
    <NotBuiltYet
      title="MFA Management"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'MFA Management', to: '/mfa' },
        { label: 'Management' },
      ]}
    />
  );
}
