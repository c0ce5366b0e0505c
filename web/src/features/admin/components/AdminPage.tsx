import { Navigate, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { useSession } from '@/lib/session';
import { ADMIN_MENU, isAdminSection, type AdminSection } from '../menu';
import { ApprovalsSection } from './ApprovalsSection';
import { AuditSection } from './AuditSection';
import { CollaborationsSection } from './CollaborationsSection';
import { CreditsSection } from './CreditsSection';
import { IssuesSection } from './IssuesSection';
import { MessageSection } from './MessageSection';
import { RefundsSection } from './RefundsSection';
import { ReportsSection } from './ReportsSection';
import { UsersSection } from './UsersSection';

const SECTIONS: Readonly<Record<AdminSection, () => React.JSX.Element>> = {
  users: UsersSection,
  approvals: ApprovalsSection,
  reports: ReportsSection,
  refunds: RefundsSection,
  credits: CreditsSection,
  issues: IssuesSection,
  message: MessageSection,
  collaborations: CollaborationsSection,
  audit: AuditSection,
};

/** The admin console: /admin and /admin/<section>. Members who are not admins are told so. */
export function AdminPage() {
  const session = useSession();
  const { section = 'users' } = useParams();
  if (session?.sessionInfo.access !== 'admin') {
    return (
      <div className="admin">
        <h1>Admin</h1>
        <Alert>Only Tandem admins can see this page.</Alert>
      </div>
    );
  }
  if (!isAdminSection(section)) return <Navigate to="/404" replace />;
  const Section = SECTIONS[section];
  const label = ADMIN_MENU.find((item) => item.id === section)?.label ?? 'Admin';
  return (
    <div className="admin">
      <p className="admin__eyebrow">Admin</p>
      <h1>{label}</h1>
      <Section />
    </div>
  );
}
