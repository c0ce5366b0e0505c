/** The auth feature's public face: what the app shell and other features may use. */
export { resendConfirmationEmail, useResendConfirmation } from './api/account';
export { logout } from './api/logout';
export { toSession, type LoginResponse } from './api/login';
