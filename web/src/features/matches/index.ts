/** The matches feature's public face: what the app shell and other features may use. */
export { MatchRunWatcher } from './components/MatchRunWatcher';
export { sendRequestPath } from './utils';
