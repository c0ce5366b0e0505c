import { api } from '@/lib/api';

export interface IssueReport {
  readonly description: string;
  /** The page the issue was seen on. */
  readonly path: string;
}

export function reportIssue(report: IssueReport): Promise<unknown> {
  return api.post('issues/report', report, { operation: 'Report an issue' });
}
