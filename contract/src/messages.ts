/** The spec's texts, in one place, so server answers and screens say the same words. */
export const fieldMessages = {
  required: (label: string) => `${label} is required`,
  email: 'Please enter a valid email address',
  minLength: (label: string, n: number) => `${label} must be at least ${n} characters`,
  min: (label: string, n: number) => `${label} must be at least ${n}`,
  max: (label: string, n: number) => `${label} must be at most ${n}`,
  domain: 'Please enter a valid domain name',
} as const;

export const loginMessages = {
  invalidCredentials: 'Invalid credentials. Please try again.',
  unauthorized: 'Invalid email or password.',
  connection: 'Unable to connect to server. Please check your connection.',
  other: 'An error occurred during login. Please try again.',
} as const;

export const apiMessages = {
  401: 'Authentication failed. Please log in again.',
  403: 'Access denied. You do not have permission to perform this action.',
  404: 'The requested resource was not found.',
  500: 'Internal server error. Please try again later.',
  0: 'Unable to connect to the server. Please check your connection.',
  other: (status: number, message: string) => `Server Error: ${status} - ${message}`,
  client: (message: string) => `Client Error: ${message}`,
  default: 'An unexpected error occurred',
} as const;
