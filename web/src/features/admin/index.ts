/** The admin feature's public face: the console's menu for the app shell. */
export { AdminMenu } from './components/AdminMenu';
export { ADMIN_MENU } from './menu';
