import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function MonitoringPage() {
  return (
    <NotBuiltYet
      title="Real-time Monitoring"
      breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'Real-time Monitoring' }]}
    />
  );
}
