import { NotBuiltYet } from '../../components/not-built-yet.tsx';

export default function VhostsPage() {
  return (
    <NotBuiltYet
      title="Virtual Hosts"
      breadcrumbs={[
        { label: 'Dashboard', to: '/dashboard' },
        { label: 'Web Management', to: '/web' },
        { label: 'Virtual Hosts' },
      ]}
    />
  );
}
