import { fieldMessages } from '@mailroom/contract/messages';

export interface LoginValues {
  email: string;
  password: string;
}

export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

// The contract's LoginRequest rules, written out so /login does not download zod.
// login-form-state.test.ts runs both on the same inputs and expects the same verdicts and messages.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PASSWORD_MIN = 6;
const PASSWORD_MAX = 1024;

function emailError(raw: string): string | undefined {
  const v = raw.trim();
  if (v.length === 0) return fieldMessages.required('Email');
  if (v.length > 254 || !EMAIL_RE.test(v)) return fieldMessages.email;
  return undefined;
}

function passwordError(v: string): string | undefined {
  if (v.length === 0) return fieldMessages.required('Password');
  if (v.length < PASSWORD_MIN) return fieldMessages.minLength('Password', PASSWORD_MIN);
  if (v.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters`;
  return undefined;
}

/** Spec §5 login rules; `data` (email trimmed) only when both fields pass. */
export function validateLogin(values: LoginValues): { errors: LoginErrors; data: LoginValues | null } {
  const errors: LoginErrors = {};
  const e = emailError(values.email);
  const p = passwordError(values.password);
  if (e) errors.email = e;
  if (p) errors.password = p;
  return { errors, data: e || p ? null : { email: values.email.trim(), password: values.password } };
}
