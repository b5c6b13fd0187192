import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function CertificatesPage() {
  return (
    <NotBuiltYet
      title="Certificate Management"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'SSL Management', to: '/ssl' },
        { label: 'Certificate Management' },
      ]}
    />
  );
}
