import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function MfaRecoveryPage() {
  return (
    <NotBuiltYet
      title="MFA Recovery"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'MFA Management', to: '/mfa' },
        { label: 'Recovery' },
      ]}
    />
  );
}
