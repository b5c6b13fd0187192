import { OkResponse } from '../common.ts';
import { defineRoute } from '../route.ts';
import { MfaDevice } from './account.ts';
import { MfaActivity, MfaDashboard, MfaStatus } from './dashboard.ts';
import { MfaPolicy, MfaPolicyInput } from './policy.ts';
import { MfaEmailRequest, MfaRecovery, IdParams } from './recovery.ts';
import { MfaUser, MfaUserListQuery } from './users.ts';
import { z } from 'zod';

export const mfaRoutes = {
  dashboard: defineRoute({
    method: 'GET',
    path: 'mfa/dashboard',
    summary: 'MFA dashboard: stats, users, policies, recent activity',
    tags: ['mfa'],
    response: MfaDashboard,
  }),
  users: defineRoute({
    method: 'GET',
    path: 'mfa/users',
    summary:
      'Accounts with their MFA state, paged (?q=&limit=&offset=&cursor=&sort=&mfa=); total in X-Total-Count',
    tags: ['mfa'],
    query: MfaUserListQuery,
    response: z.array(MfaUser),
  }),
  devices: defineRoute({
    method: 'GET',
    path: 'mfa/devices',
    summary: 'Every enrolled device',
    tags: ['mfa'],
    response: z.array(MfaDevice),
  }),
  policies: defineRoute({
    method: 'GET',
    path: 'mfa/policies',
    summary: 'MFA policies',
    tags: ['mfa'],
    response: z.array(MfaPolicy),
  }),
  activity: defineRoute({
    method: 'GET',
    path: 'mfa/activity',
    summary: 'Recent MFA activity',
    tags: ['mfa'],
    response: z.array(MfaActivity),
  }),
  status: defineRoute({
    method: 'GET',
    path: 'mfa/status',
    summary: 'Which second-factor methods are available',
    tags: ['mfa'],
    response: MfaStatus,
    access: 'self',
  }),
  enable: defineRoute({
    method: 'POST',
    path: 'mfa/enable',
    summary:
      'Require the account to enrol a second factor: its live sessions reach only enrolment from their next request, and so does its next sign-in',
    tags: ['mfa'],
    body: MfaEmailRequest,
    response: OkResponse,
    audit: 'mfa.enable',
  }),
  disable: defineRoute({
    method: 'POST',
    path: 'mfa/disable',
    summary:
      "Remove every factor and backup code of the account (its sessions end; a mailbox user's app passwords are revoked)",
    tags: ['mfa'],
    body: MfaEmailRequest,
    response: OkResponse,
    audit: 'mfa.disable',
  }),
  createPolicy: defineRoute({
    method: 'POST',
    path: 'mfa/policies',
    summary: 'Add an MFA policy',
    tags: ['mfa'],
    body: MfaPolicyInput,
    response: MfaPolicy,
    audit: 'mfa.policy.create',
  }),
  updatePolicy: defineRoute({
    method: 'PUT',
    path: 'mfa/policies/:id',
    summary: 'Change an MFA policy',
    tags: ['mfa'],
    params: IdParams,
    body: MfaPolicyInput,
    response: MfaPolicy,
    audit: 'mfa.policy.update',
  }),
  deletePolicy: defineRoute({
    method: 'DELETE',
    path: 'mfa/policies/:id',
    summary: 'Delete an MFA policy',
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.policy.delete',
  }),
  revokeDevice: defineRoute({
    method: 'DELETE',
    path: 'mfa/devices/:id',
    summary: "Revoke a device (the account's sessions end)",
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.device.revoke',
  }),
  recovery: defineRoute({
    method: 'GET',
    path: 'mfa/recovery',
    summary: 'Recovery requests, lockouts, backup codes and recovery methods',
    tags: ['mfa'],
    response: MfaRecovery,
  }),
  unlock: defineRoute({
    method: 'POST',
    path: 'mfa/lockouts/:id/unlock',
    summary: 'Lift an account lockout',
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.lockout.unlock',
  }),
  approveRecovery: defineRoute({
    method: 'POST',
    path: 'mfa/recovery/:id/approve',
    summary: "Approve a recovery request: the account's factors are reset and it enrols at next sign-in",
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.recovery.approve',
  }),
  rejectRecovery: defineRoute({
    method: 'POST',
    path: 'mfa/recovery/:id/reject',
    summary: 'Reject a recovery request',
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.recovery.reject',
  }),
};
