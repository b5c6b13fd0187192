import {
  API_KEY_AREA_LABELS,
  API_KEY_AREAS,
  API_KEY_EXPIRY_DAYS,
  CreateApiKey,
} from '@mailroom/contract/api-monitoring';
import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { useCreateApiKey } from './use-create-api-key.ts';

interface Values {
  name: string;
  access: 'read' | 'read-write';
  areas: string[];
  domains: string[];
  expiresInDays: string;
  allowedAddresses: string[];
}

const toInput = (v: Values) => ({
  ...v,
  name: v.name.trim(),
  expiresInDays: Number(v.expiresInDays),
});

export function CreateKeyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [token, setToken] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: {
      name: '',
      access: 'read',
      areas: ['mail'],
      domains: [],
      expiresInDays: '90',
      allowedAddresses: [],
    },
    validate: zodValidate<Values>(CreateApiKey, toInput),
  });
  const close = () => {
    setToken(null);
    form.reset();
    onClose();
  };
  const submit = async (values: Values) => {
    try {
      const made = await create.mutateAsync(CreateApiKey.parse(toInput(values)));
      setToken(made.token);
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Failed to create the API key', message: errorMessage(err) });
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={token ? 'API key created' : 'Create API Key'} size="lg">
      {token ? (
        <Stack>
          <Alert color="yellow" title="Copy the key now">
            It is shown only this once: the server keeps only its hash.
          </Alert>
          <Group wrap="nowrap" gap="xs">
            <Code block style={{ flex: 1, overflowWrap: 'anywhere' }} data-testid="new-api-key">
              {token}
            </Code>
            <CopyButton value={token} label="Copy the API key" />
          </Group>
          <Text size="sm">
            Send it as <Code>Authorization: Bearer &lt;key&gt;</Code>.
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack>
            <TextInput label="Name" required {...form.getInputProps('name')} />
            <Select
              label="Access"
              allowDeselect={false}
              data={[
                { value: 'read', label: 'Read-only' },
                { value: 'read-write', label: 'Read-write' },
              ]}
              {...form.getInputProps('access')}
            />
            <Checkbox.Group label="Areas" {...form.getInputProps('areas')}>
              <Group mt={6}>
                {API_KEY_AREAS.map((a) => (
                  <Checkbox key={a} value={a} label={API_KEY_AREA_LABELS[a]} />
                ))}
              </Group>
            </Checkbox.Group>
            <TagsInput
              label="Domains"
              description="Leave empty for every domain; with domains the key acts like a domain administrator of them."
              {...form.getInputProps('domains')}
            />
            <Select
              label="Expires in"
              allowDeselect={false}
              data={API_KEY_EXPIRY_DAYS.map((d) => ({ value: String(d), label: `${d} days` }))}
              {...form.getInputProps('expiresInDays')}
            />
            <TagsInput
              label="Allowed addresses"
              description="Addresses or ranges (10.0.0.0/8) the key may be used from; empty: any."
              {...form.getInputProps('allowedAddresses')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={create.isPending}
                leftSection={<IconKey size={16} aria-hidden />}
              >
                Create Key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
