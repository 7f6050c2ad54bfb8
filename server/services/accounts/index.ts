/**
 * Accounts: registration, login, password resets, the account and profile forms.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { login, normaliseEmail, register, requestPasswordReset, restorePassword, updateAccount } from './accounts.ts';
export { checkProfileSaveAccess, getFullProfile, getPublicProfile, updateProfile } from './profiles.ts';
export { toCurrentUser } from './users.ts';
export { lookupZip } from './zip-lookup.ts';
