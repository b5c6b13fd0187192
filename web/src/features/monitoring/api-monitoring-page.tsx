import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function ApiMonitoringPage() {
  return (
    <NotBuiltYet
      title="API Monitoring"
      breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'API Monitoring' }]}
    />
  );
}
