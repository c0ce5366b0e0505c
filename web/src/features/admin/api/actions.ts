import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatListDate, formatMoney, parseDate } from '@/lib/format';
import { errorToast } from '@/lib/mutations';
import { showToast } from '@/lib/toast';
import { adminActions, type GiftInput, type Member, type SiteSettings, type WaitingAccount } from './console';
import { adminKeys } from './keys';

/**
 * The admin console's writes. Each says what it did in a toast and asks again for the
 * console's lists; a refusal is an error toast (the refuse and gift forms show theirs on
 * the form instead).
 */
function useAfterAdminWrite(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function useApproveAccount(account: WaitingAccount) {
  const refresh = useAfterAdminWrite();
  return useMutation({
    meta: errorToast('Not approved'),
    mutationFn: () => adminActions.approve(account.accountId),
    onSuccess: (result) => {
      showToast({
        tone: 'success',
        title: 'Subscription approved',
        message: `${account.email} was emailed; ${plural(result.released, 'held request was', 'held requests were')} sent.`,
      });
      refresh();
    },
  });
}

/** Refuse and refund; a refusal of it is the form's to show under the reason. */
export function useRefuseAccount(account: WaitingAccount) {
  const refresh = useAfterAdminWrite();
  return useMutation({
    mutationFn: (reason: string) => adminActions.refuse(account.accountId, reason),
    onSuccess: (result) => {
      showToast({
        tone: 'success',
        title: 'Subscription refused',
        message: `${account.email} was emailed and refunded; ${plural(result.cancelledRequests, 'held request was', 'held requests were')} cancelled.`,
      });
      refresh();
    },
  });
}

export function useSaveSiteSettings() {
  const refresh = useAfterAdminWrite();
  return useMutation({
    meta: errorToast('Not saved'),
    mutationFn: (change: Partial<SiteSettings>) => adminActions.saveSettings(change),
    onSuccess: (next) => {
      refresh();
      showToast({
        tone: 'success',
        title: 'Saved',
        message: next.approveNewMembers ? 'New members’ first plan now waits for approval.' : 'New members’ plans start at once.',
      });
    },
  });
}

/** The global message (top bar); a refusal is the form's to show. */
export function useSaveGlobalMessage() {
  const refresh = useAfterAdminWrite();
  return useMutation({
    mutationFn: (message: string) => adminActions.saveSettings({ globalMessage: message }),
    onSuccess: refresh,
  });
}

export function useRequireApproval(member: Member) {
  const refresh = useAfterAdminWrite();
  return useMutation({
    meta: errorToast('Not changed'),
    mutationFn: () => adminActions.requireApproval(member.accountId),
    onSuccess: () => {
      showToast({ tone: 'success', title: 'Approval required', message: `${member.email}'s next plan waits for approval.` });
      refresh();
    },
  });
}

/** A free trial Tandem gives (no card; once per account: a second is the server's 409, told in a toast). */
export function useGrantTrial(member: Member) {
  const refresh = useAfterAdminWrite();
  return useMutation({
    meta: errorToast('No trial granted'),
    mutationFn: () => adminActions.grantTrial(member.accountId),
    onSuccess: (result) => {
      // Users' plan has no end for a trial (validTo); the credits info's plan says when it ends.
      const ends = parseDate(result.credits.plan?.trialEndsOn ?? result.plan.validTo);
      showToast({
        tone: 'success',
        title: 'Free trial granted',
        message: `${member.email} has ${plural(result.credits.available, 'credit', 'credits')} to use${ends ? ` until ${formatListDate(ends)}` : ''}.`,
      });
      refresh();
    },
  });
}

export function useRefund(accountId: string, email: string) {
  const refresh = useAfterAdminWrite();
  return useMutation({
    meta: errorToast('No refund'),
    mutationFn: () => adminActions.refund(accountId),
    onSuccess: (result) => {
      showToast({
        tone: 'success',
        title: 'Refund issued',
        message: `${formatMoney(result.refund.amount, 'gbp')} refunded to ${email}; the plan has ended and ${result.credits.available} credits are left.`,
      });
      refresh();
    },
  });
}

/** Gift credits; a refusal is the form's to show on its fields. */
export function useGiftCredits() {
  const refresh = useAfterAdminWrite();
  return useMutation({
    mutationFn: (input: GiftInput) => adminActions.gift(input),
    onSuccess: refresh,
  });
}
