import type { DeclineDirection } from './api/declines';

/** /declines[/{userBrand}] shows your declined requests (out); /declines/in the ones you declined. */
export function directionOf(pathname: string): DeclineDirection {
  return pathname.split('/')[2] === 'in' ? 'in' : 'out';
}

export function declinesPath(dir: DeclineDirection, userBrand?: string): string {
  return userBrand ? `/declines/${dir}/${userBrand}` : `/declines/${dir}`;
}
