/** What the other features may call of the events area (the owner of `notifications`). */
export { notify, purgeNotifications } from './notification.repository.ts';
