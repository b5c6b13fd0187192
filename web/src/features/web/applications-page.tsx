import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function ApplicationsPage() {
  return (
    <NotBuiltYet
      title="Applications"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'Web Management', to: '/web' },
        { label: 'Applications' },
      ]}
    />
  );
}
