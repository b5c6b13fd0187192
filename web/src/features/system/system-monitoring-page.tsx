import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function SystemMonitoringPage() {
  return (
    <NotBuiltYet
      title="System Monitoring"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'System Administration', to: '/system' },
        { label: 'Monitoring' },
      ]}
    />
  );
}
