import { api } from '@/lib/api';

/** Records that the user finished the welcome popup. */
export function finishWelcome(): Promise<unknown> {
  return api.post('users/action/welcome', undefined, { operation: 'Welcome' });
}

/** Records that the user has seen the brand visibility update. */
export function acknowledgeBrandVisibility(): Promise<unknown> {
  return api.post('users/action/brand-visibility-pupup', undefined, { operation: 'Brand visibility' });
}
