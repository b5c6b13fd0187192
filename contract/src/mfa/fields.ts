import { z } from 'zod';

export const deviceName = z
  .string()
  .trim()
  .min(1, 'Device Name is required')
  .max(64, 'Device Name must be at most 64');
export const code = z.string().trim().min(1, 'Code is required').max(64, 'Code must be at most 64');
