/** The admin feature's public face: the console's menu for the app shell (loaded for admins only, ./lazy). */
export { LazyAdminMenu, LazyImpersonateField } from './lazy';
export { ADMIN_MENU } from './menu';
