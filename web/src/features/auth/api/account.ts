import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api';
import { markEmailConfirmed } from '@/lib/login-check';

/** The plain `{ message }` answer of the account-link calls. */
export interface MessageResponse {
  readonly message: string;
}

export interface CreateAccountRequest {
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly brandName: string;
}

/** 201 { message }; 400 with per-field `errors`; 409 when the email is taken. */
export function createAccount(request: CreateAccountRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>('users/create-account', request, { auth: false });
}

/** Confirms an email address with the code from the emailed link. */
export function confirmEmail(code: string): Promise<MessageResponse> {
  return api.post<MessageResponse>('users/confirm-email', { code }, { auth: false });
}

/** Sends the signed-in user a new confirmation email. */
export function resendConfirmationEmail(): Promise<MessageResponse> {
  return api.get<MessageResponse>('users/confirm-email/resend');
}

/** Always answers 200 (it never reveals whether the email has an account). */
export function forgotPassword(email: string): Promise<MessageResponse> {
  return api.post<MessageResponse>('users/forgot-password', { email }, { auth: false });
}

/** Emails a link for creating a first password. */
export function setupPassword(email: string): Promise<MessageResponse> {
  return api.post<MessageResponse>('users/setup-password', { email }, { auth: false });
}

/** The two emailed-link password screens share their shape. */
export type PasswordLinkKind = 'reset' | 'create';

export function setPasswordWithCode(
  kind: PasswordLinkKind,
  code: string,
  password: string,
): Promise<MessageResponse> {
  const path = kind === 'reset' ? 'users/reset-password' : 'users/create-password';
  return api.post<MessageResponse>(path, { code, password }, { auth: false });
}

/** Stops the welcome email series for the signed-in user (the link in those emails). */
export function stopWelcomeEmails(email: string): Promise<MessageResponse> {
  return api.get<MessageResponse>(`users/stop-welcome-emails/${encodeURIComponent(email)}`);
}

// ---------------------------------------------------------------- writes (mutations)
// The account screens show a refusal above (or on) their fields: no error toast.

/** Create an account (the create-account form): 400 with per-field `errors`, 409 when the email is taken. */
export function useCreateAccount() {
  return useMutation({ mutationFn: createAccount });
}

/** Email a link to reset a forgotten password (the forgot-password form). */
export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

/** Email a link to create a first password (the set-up-password forms). */
export function useSetupPassword() {
  return useMutation({ mutationFn: setupPassword });
}

/** Set a password with the code of an emailed reset or create link. */
export function useSetPasswordWithCode(kind: PasswordLinkKind) {
  return useMutation({
    mutationFn: ({ code, password }: { readonly code: string; readonly password: string }) =>
      setPasswordWithCode(kind, code, password),
  });
}

/** What a confirmation link without a code says (nothing is asked of the server). */
export const MISSING_CODE = 'This confirmation link is incomplete. Please open the link from your email again.';

/** Confirm an email address with the code of the emailed link; what the app knows of the user says so. */
export function useConfirmEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => (code === '' ? Promise.reject(new ApiError(0, MISSING_CODE)) : confirmEmail(code)),
    onSuccess: () => {
      markEmailConfirmed(client);
    },
  });
}

/** Stop the welcome emails (the link at their foot). */
export function useStopWelcomeEmails() {
  return useMutation({ mutationFn: stopWelcomeEmails });
}
