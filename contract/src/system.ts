import { z } from 'zod';
import { defineRoute } from './route.ts';

export const UsedTotal = z.object({ used: z.number(), total: z.number() });

export const SystemStatus = z.object({
  status: z.string(),
  uptime: z.number(),
  memory: UsedTotal,
  disk: UsedTotal,
});
export type SystemStatus = z.infer<typeof SystemStatus>;

export const systemRoutes = {
  status: defineRoute({
    method: 'GET',
    path: 'system/status',
    summary: 'Machine status: uptime, memory and disk',
    tags: ['system'],
    response: SystemStatus,
  }),
};
