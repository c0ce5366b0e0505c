/** "Welcome back" is for members who have been here before; a first visit gets "Welcome". */
export function greeting(firstName: string | undefined, firstVisit: boolean): string {
  if (!firstName) return 'Dashboard';
  return firstVisit ? `Welcome, ${firstName}` : `Welcome back, ${firstName}`;
}
