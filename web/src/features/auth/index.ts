/** The auth feature's public face: what the app shell and other features may use. */
export { useResendConfirmation } from './api/resend-confirmation';
export { logout } from './api/logout';
export { toSession, type LoginResponse } from './api/login';
