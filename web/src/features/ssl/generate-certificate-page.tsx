import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function GenerateCertificatePage() {
  return (
    <NotBuiltYet
      title="Certificate Generation"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'SSL Management', to: '/ssl' },
        { label: 'Certificate Generation' },
      ]}
    />
  );
}
