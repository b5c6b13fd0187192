/** What the other features may call of the auth area (the owner of console accounts and `admin_domains`). */
export { adminDomains, allAdminDomains, consoleAdmins, firstConsoleAdminEmail } from './admin.repository.ts';
