import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { errorToast } from '@/lib/mutations';

export interface IssueReport {
  readonly description: string;
  /** The page the issue was seen on. */
  readonly path: string;
}

export function reportIssue(report: IssueReport): Promise<unknown> {
  return api.post('issues/report', report);
}

/** Send report: a refusal is an error toast, and the box keeps the text so it can be sent again. */
export function useReportIssue() {
  return useMutation({
    meta: errorToast('Report an issue'),
    mutationFn: reportIssue,
  });
}
