import { useState, type SubmitEvent } from 'react';
import { formErrorOf, showFieldErrors } from '@/components/form/server-errors';
import { TextAreaField } from '@/components/form/TextAreaField';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { LoadFailed } from '@/components/ui/ListStates';
import { Modal } from '@/components/ui/Modal';
import { PageLoader } from '@/components/ui/PageLoader';
import { isAdmin } from '@/lib/session';
import { dayOf, useAdminFeatures, useApproveFeature, useRefuseFeature, type Feature } from '../api/pitch';

function RefuseDialog({ feature, onClose }: { readonly feature: Feature | null; readonly onClose: () => void }) {
  const reason = useField();
  const refuse = useRefuseFeature();
  const busy = refuse.isPending;
  const error = formErrorOf(refuse.error, { reason });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!feature || busy || reason.validate() !== null) return;
    refuse.mutate(
      { feature, reason: reason.value.trim() },
      {
        onSuccess: onClose,
        onError: (failure) => showFieldErrors(failure, { reason }, { focus: false }),
      },
    );
  };
  return (
    <Modal open={feature !== null} title={feature ? `Refuse “${feature.title}”` : ''} onClose={onClose} closeOnOverlayClick={false}>
      <form className="form" noValidate onSubmit={submit}>
        {error && (
          <Alert title="We couldn't refuse it">
            <p>{error}</p>
          </Alert>
        )}
        <TextAreaField field={reason} name="reason" label="Reason (the member sees it)" rows={4} />
        <div className="actions actions--end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" busy={busy}>
            Refuse feature
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** /admin/features: features awaiting approval; approve (the owner is emailed) or refuse with a reason. */
export function AdminFeaturesPage() {
  const admin = isAdmin();
  const list = useAdminFeatures('pending');
  const [refusing, setRefusing] = useState<Feature | null>(null);
  const approval = useApproveFeature();
  const busy = approval.isPending ? approval.variables.id : null;

  if (!admin) {
    return (
      <Alert title="Only Tandem admins can see this page">
        <p>Sign in with an admin account to approve features.</p>
      </Alert>
    );
  }

  const approve = (feature: Feature) => {
    approval.mutate(feature);
  };

  const features = list.data?.features ?? [];
  return (
    <div className="pitch">
      <header className="page-header">
        <div>
          <h1 className="page-title">Features to approve</h1>
          <p className="page-header__lead">Members expect an answer within 24 hours. Oldest first.</p>
        </div>
      </header>
      {list.isError && (
        <LoadFailed
          title="We couldn't load the features"
          error={list.error}
          retry={() => {
            void list.refetch();
          }}
        />
      )}
      {list.isPending && <PageLoader />}
      {list.isSuccess && features.length === 0 && (
        <div className="empty-state">
          <h2>Nothing to approve</h2>
          <p className="muted">New features appear here when members submit them.</p>
        </div>
      )}
      <ul className="admin-features" aria-label="Features awaiting approval">
        {features.map((feature) => (
          <li key={feature.id} className="admin-feature">
            <div className="admin-feature__main">
              <h2 className="admin-feature__title">{feature.title}</h2>
              <p className="muted small">
                {feature.brand.name} · {feature.months} months · submitted {dayOf(feature.createdAt)} ·{' '}
                {feature.payWith === 'credits' ? 'paid with 3 credits' : feature.paid ? 'product paid' : 'product not paid yet'}
              </p>
              <p>
                <strong>Offers:</strong> {feature.offer}
              </p>
              <p>
                <strong>Looking for:</strong> {feature.lookingFor}
              </p>
              <p className="muted small">{feature.collabKinds.join(', ')}</p>
            </div>
            <div className="actions">
              <Button busy={busy === feature.id} disabled={feature.paid === false} onClick={() => {
                  approve(feature);
                }}>
                Approve<span className="visually-hidden">: {feature.title}</span>
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  setRefusing(feature);
                }}
              >
                Refuse<span className="visually-hidden">: {feature.title}</span>
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <RefuseDialog
        key={refusing?.id ?? 'none'}
        feature={refusing}
        onClose={() => {
          setRefusing(null);
        }}
      />
    </div>
  );
}
