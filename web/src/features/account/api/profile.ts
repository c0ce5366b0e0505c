import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { goAfterSignOut } from '@/lib/force-logout';
import { errorToast } from '@/lib/mutations';
import { updateLoginCheck } from '@/lib/login-check';
import { clearSession, getSession, saveSession } from '@/lib/session';
import { showToast } from '@/lib/toast';
import { toSession, type LoginResponse } from '@/features/auth';

/** GET users/profile: the signed-in member's own details (/account/profile/). */
export interface Profile {
  readonly name: string;
  readonly firstName: string;
  readonly initials: string;
  readonly email: string;
  readonly emailConfirmed: boolean;
  readonly hasPassword: boolean;
}

export interface ProfileChange {
  readonly message: string;
  readonly profile: Profile;
}

/** The profile belongs to the user, not to a brand: one key (the cache is cleared on sign-out). */
export const profileKeys = { all: ['profile'] as const };

export const profileQuery = () =>
  queryOptions({
    queryKey: profileKeys.all,
    queryFn: () => api.get<Profile>('users/profile'),
    staleTime: 0,
  });

/** Keeps what other screens show of the user in step with a saved profile. */
function applyProfile(client: QueryClient, profile: Profile): void {
  client.setQueryData(profileKeys.all, profile);
  updateLoginCheck(client, { email: profile.email, emailConfirmed: profile.emailConfirmed });
  const session = getSession();
  if (session && (session.name !== profile.name || session.initials !== profile.initials)) {
    saveSession({ ...session, name: profile.name, firstName: profile.firstName, initials: profile.initials });
  }
}

/** PUT users/profile {name}. */
export async function changeName(client: QueryClient, name: string): Promise<string> {
  const answer = await api.put<ProfileChange>('users/profile', { name });
  applyProfile(client, answer.profile);
  return answer.message;
}

/** PUT users/profile/email {email, currentPassword}: the new address must be confirmed. */
export async function changeEmail(client: QueryClient, email: string, currentPassword: string): Promise<string> {
  const answer = await api.put<ProfileChange>('users/profile/email', { email, currentPassword });
  applyProfile(client, answer.profile);
  return answer.message;
}

/**
 * POST users/change-password: every other session ends; this browser keeps going with the
 * new session the answer carries.
 */
export async function changePassword(currentPassword: string, newPassword: string): Promise<string> {
  const answer = await api.post<LoginResponse & { readonly message: string }>('users/change-password', {
    currentPassword,
    newPassword,
  });
  saveSession(toSession(answer));
  return answer.message;
}

/**
 * POST users/logout-everywhere: every sign-in of the account ends, this browser's too; the
 * session here is forgotten. Answers the server's message.
 */
export async function signOutEverywhere(): Promise<string> {
  const answer = await api.post<{ readonly message: string }>('users/logout-everywhere', {});
  clearSession();
  return answer.message;
}

// ---------------------------------------------------------------- writes (mutations)
// The Profile forms show a refusal on their fields or above them: no error toast.

export function useChangeName() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (name: string) => changeName(client, name) });
}

export function useChangeEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ email, currentPassword }: { readonly email: string; readonly currentPassword: string }) =>
      changeEmail(client, email, currentPassword),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { readonly currentPassword: string; readonly newPassword: string }) =>
      changePassword(currentPassword, newPassword),
  });
}

/** Sign out everywhere (the Account page): the server's message in a toast, then the sign-in page; a refusal is an error toast. */
export function useSignOutEverywhere() {
  return useMutation({
    meta: errorToast("We couldn't sign you out everywhere"),
    mutationFn: signOutEverywhere,
    onSuccess: (message) => {
      showToast({ tone: 'success', title: message });
      goAfterSignOut('/login/');
    },
  });
}
