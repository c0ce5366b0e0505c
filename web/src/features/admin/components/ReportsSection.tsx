import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { confirm } from '@/components/ui/confirm';
import { PagedSection } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError } from '@/lib/api';
import { formatListDateTime, parseDate } from '@/lib/format';
import { useBrandAction, useReportCases, useReportedBrand, type CaseStatus, type ReportCase } from '../api/reports';

const STATUS_TABS: readonly { readonly id: CaseStatus; readonly label: string }[] = [
  { id: 'open', label: 'Open reports' },
  { id: 'suspended', label: 'Suspended brands' },
];

const REQUEST_STATUS: Readonly<Record<string, string>> = {
  pending: 'Pending',
  awaiting_approval: 'Awaiting approval',
  accepted: 'Accepted',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

function when(value: string | null): string {
  const at = value ? parseDate(value) : null;
  return at ? formatListDateTime(at) : (value ?? '');
}

/** One brand's recent requests and the team's actions on it. */
function BrandReview({ brandId, status }: { readonly brandId: number; readonly status: CaseStatus | null }) {
  const detail = useReportedBrand(brandId);
  const act = useBrandAction();
  const [warning, setWarning] = useState<string | null>(null);
  const warnId = useId();
  if (detail.isPending) return <PageLoader inline />;
  if (detail.isError) return <Alert>{describeError(detail.error)}</Alert>;
  const { brand, recentRequests } = detail.data;
  const name = brand.name;

  const ask = async (action: 'suspend' | 'lift') => {
    try {
      await confirm(
        action === 'suspend'
          ? {
              title: `Suspend ${name}?`,
              message: "It is hidden from every member, can't send requests or pitches, and leaves the Pitch Area. Its pending requests are cancelled and their credits returned to their senders. Its owner is emailed and sees a notice on their dashboard.",
              confirmLabel: 'Suspend',
              danger: true,
            }
          : { title: `Lift the suspension of ${name}?`, message: 'Members see it again and it can send requests and pitches.', confirmLabel: 'Lift suspension' },
      );
    } catch {
      return;
    }
    act.mutate({ brandId, action });
  };

  return (
    <div className="admin-review">
      <h2 className="admin-review__title">Recent requests sent by {name}</h2>
      {recentRequests.length === 0 ? (
        <p className="muted">It hasn't sent any request.</p>
      ) : (
        <ul className="admin-review__requests">
          {recentRequests.map((request) => (
            <li key={request.id}>
              {when(request.at)} · to {request.to || 'a brand'}
              {request.isPitch && ' (pitch)'} · <strong>{REQUEST_STATUS[request.status] ?? request.status}</strong>
            </li>
          ))}
        </ul>
      )}
      {warning !== null && (
        <form
          className="admin-review__warn"
          onSubmit={(event) => {
            event.preventDefault();
            act.mutate({ brandId, action: 'warn', text: warning }, { onSuccess: () => { setWarning(null); } });
          }}
        >
          <label className="field__label" htmlFor={warnId}>
            Warning to the owner of {name} (sent by email)
          </label>
          <textarea id={warnId} rows={4} maxLength={2000} value={warning} onChange={(event) => { setWarning(event.target.value); }} className="field__input field__input--textarea" />
          <div className="admin__row-actions">
            <Button type="submit" busy={act.isPending} disabled={warning.trim() === ''}>
              Send warning
            </Button>
            <Button variant="secondary" onClick={() => { setWarning(null); }}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      <div className="admin__row-actions">
        {status === 'open' && (
          <>
            <Button variant="secondary" busy={act.isPending && act.variables.action === 'dismiss'} onClick={() => { act.mutate({ brandId, action: 'dismiss' }); }}>
              Dismiss<span className="visually-hidden"> reports of {name}</span>
            </Button>
            {warning === null && (
              <Button variant="secondary" onClick={() => { setWarning(''); }}>
                Warn<span className="visually-hidden"> {name}</span>
              </Button>
            )}
          </>
        )}
        {brand.suspended ? (
          <Button busy={act.isPending && act.variables.action === 'lift'} onClick={() => void ask('lift')}>
            Lift suspension<span className="visually-hidden"> of {name}</span>
          </Button>
        ) : (
          <Button variant="danger" busy={act.isPending && act.variables.action === 'suspend'} onClick={() => void ask('suspend')}>
            Suspend<span className="visually-hidden"> {name}</span>
          </Button>
        )}
      </div>
    </div>
  );
}

function CaseCard({ item, open, onToggle }: { readonly item: ReportCase; readonly open: boolean; readonly onToggle: () => void }) {
  const count = item.reports.length;
  return (
    <li className="card admin__card" aria-label={item.brand.name}>
      <div className="admin__card-head">
        <div>
          <p className="admin__primary">{item.brand.name}</p>
          <p className="admin__secondary">
            Brand {item.brand.id} · {item.status === 'suspended' ? `suspended ${when(item.openedAt)}` : `${count} report${count === 1 ? '' : 's'} since ${when(item.openedAt)}`}
          </p>
        </div>
        <Button variant="secondary" onClick={onToggle} aria-expanded={open}>
          {open ? 'Close' : 'Review'}
          <span className="visually-hidden"> {item.brand.name}</span>
        </Button>
      </div>
      {count > 0 && (
        <ul className="admin-review__reports">
          {item.reports.map((report) => (
            <li key={`${report.reporter.email}-${report.at}`}>
              <p>
                <strong>{report.reasonLabel}</strong> · {report.reporter.email || 'a member'}
                {report.reporter.brandName && ` (${report.reporter.brandName})`} · {when(report.at)}
              </p>
              {report.text && <p className="admin__report">{report.text}</p>}
            </li>
          ))}
        </ul>
      )}
      {open && <BrandReview brandId={item.brand.id} status={item.status} />}
    </li>
  );
}

/** The Reports queue: brands members reported, the suspended ones, and what the team does. */
export function ReportsSection() {
  const [search, setSearch] = useSearchParams();
  const status: CaseStatus = search.get('status') === 'suspended' ? 'suspended' : 'open';
  const linked = /^\d+$/.test(search.get('brand') ?? '') ? Number(search.get('brand')) : null;
  const [openId, setOpenId] = useState<number | null>(linked);
  const list = useReportCases(status);
  const listed = list.data?.pages.some((page) => page.items.some((item) => item.id === linked)) ?? false;
  return (
    <section className="admin__section">
      <div className="admin__tabs" role="group" aria-label="Which brands">
        {STATUS_TABS.map((tab) => (
          <Button
            key={tab.id}
            variant={tab.id === status ? 'primary' : 'secondary'}
            aria-pressed={tab.id === status}
            onClick={() => {
              setOpenId(null);
              setSearch(tab.id === 'open' ? {} : { status: tab.id });
            }}
          >
            {tab.label}
          </Button>
        ))}
      </div>
      {linked !== null && list.isSuccess && !listed && (
        <div className="card admin__card">
          <p className="admin__secondary">Brand {linked}</p>
          <BrandReview brandId={linked} status={null} />
        </div>
      )}
      <PagedSection
        list={list}
        noun={status === 'open' ? 'reports' : 'suspended brands'}
        empty={<p>{status === 'open' ? 'No brand is waiting for review.' : 'No brand is suspended.'}</p>}
      >
        {(cases) => (
          <ul className="admin__cards">
            {cases.map((item) => (
              <CaseCard key={item.id} item={item} open={openId === item.id} onToggle={() => { setOpenId(openId === item.id ? null : item.id); }} />
            ))}
          </ul>
        )}
      </PagedSection>
    </section>
  );
}
