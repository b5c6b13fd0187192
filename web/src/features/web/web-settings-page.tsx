import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function WebSettingsPage() {
  return (
    <NotBuiltYet
      title="Server Configuration"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'Web Management', to: '/web' },
        { label: 'Server Configuration' },
      ]}
    />
  );
}
