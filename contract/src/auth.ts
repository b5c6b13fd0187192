import { z } from 'zod';
import { OkResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { emailField, passwordField } from './validators.ts';

export const LoginRequest = z.object({
  email: emailField('Email'),
  password: passwordField('Password', 6),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResponse = z.object({ success: z.boolean(), api_key: z.string(), email: z.string() });
export type LoginResponse = z.infer<typeof LoginResponse>;

export const AuthStatusResponse = z.object({ authenticated: z.boolean(), email: z.string().optional() });
export type AuthStatusResponse = z.infer<typeof AuthStatusResponse>;

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'login',
    summary: 'Sign in; answers the session key',
    tags: ['auth'],
    body: LoginRequest,
    response: LoginResponse,
    public: true,
  }),
  logout: defineRoute({
    method: 'POST',
    base: '/auth',
    path: 'logout',
    summary: 'Revoke the current session',
    tags: ['auth'],
    response: OkResponse,
    public: true,
  }),
  status: defineRoute({
    method: 'GET',
    base: '/auth',
    path: 'status',
    summary: 'Whether the caller holds a live session',
    tags: ['auth'],
    response: AuthStatusResponse,
    public: true,
  }),
};
