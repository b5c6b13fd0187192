import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function SslSettingsPage() {
  return (
    <NotBuiltYet
      title="SSL Settings"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'SSL Management', to: '/ssl' },
        { label: 'SSL Settings' },
      ]}
    />
  );
}
