/** The navigation feature's public face: the paths other features link to. */
export { BILLING_PATH, BRAND_PROFILE_PATH, formatCount, NOTIFICATIONS_PATH, PROFILE_PATH } from './menu';
