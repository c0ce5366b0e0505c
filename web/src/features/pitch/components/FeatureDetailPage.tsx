import { useState, type SubmitEvent } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { formErrorOf, showFieldErrors } from '@/components/form/server-errors';
import { TextAreaField } from '@/components/form/TextAreaField';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { confirmed } from '@/components/ui/confirmed';
import { LoadFailed } from '@/components/ui/ListStates';
import { Modal } from '@/components/ui/Modal';
import { PageLoader } from '@/components/ui/PageLoader';
import { BrandLogo } from '@/features/brands';
import { openSubscriptionOverlay, paymentRefusal } from '@/features/subscriptions';
import { TrustActions } from '@/features/trust';
import { ApiError } from '@/lib/api';
import { useIsFeatureOnly } from '@/lib/login-check';
import { useCurrentBrandId, useSelectedBrandSuspended } from '@/lib/session-state';
import { dayOf, useEndFeature, usePitchTo, useFeatureCheckout, STATUS_LABEL, useFeature, type Feature, type PitchOptions } from '../api/pitch';
import { featurePath, PITCH_PATH } from '../paths';

const MESSAGE_MAX = 1000;
const MESSAGE_RULES = [(value: string) => (value.trim().length > MESSAGE_MAX ? `Please keep this to ${MESSAGE_MAX} characters or fewer.` : null)];

function PitchDialog({
  feature,
  options,
  brand,
  open,
  onClose,
}: {
  readonly feature: Feature;
  readonly options: PitchOptions;
  readonly brand: string;
  readonly open: boolean;
  readonly onClose: () => void;
}) {
  const message = useField({ rules: MESSAGE_RULES });
  const pitch = usePitchTo(brand, feature);
  const busy = pitch.isPending;
  const error = paymentRefusal(pitch.error) ? null : formErrorOf(pitch.error, { message });

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || message.validate() !== null) return;
    pitch.mutate(message.value.trim(), {
      onSuccess: onClose,
      onError: (failure) => {
        const refusal = paymentRefusal(failure);
        if (refusal) {
          onClose();
          openSubscriptionOverlay({ reason: refusal.reason, type: 'pitch', requiredCredits: options.pitchCost });
          return;
        }
        showFieldErrors(failure, { message }, { focus: false });
      },
    });
  };

  return (
    <Modal open={open} width={800} title={`Pitch to ${feature.brand.name}`} onClose={onClose} closeOnOverlayClick={false}>
      <form className="form" noValidate onSubmit={submit}>
        <p className="muted small">
          Pitching costs {options.pitchCost} credit. {feature.brand.name} sees your brand and message, and if they accept you both get
          each other's contact details.
        </p>
        {error && (
          <Alert title="We couldn't send your pitch">
            <p>{error}</p>
          </Alert>
        )}
        <TextAreaField
          field={message}
          name="message"
          label="Your pitch"
          rows={6}
          placeholder="Hi! Our candles would be a lovely fit for your gift box because…"
        />
        <div className="actions actions--end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={busy}>
            Send pitch ({options.pitchCost} credit)
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** The owner's view of where their feature stands, with End early and Pay. */
function OwnerPanel({ feature, brand }: { readonly feature: Feature; readonly brand: string }) {
  // The menu names received pitches 'Pitches Received' for feature-only members, 'Requests' for others.
  const featureOnly = useIsFeatureOnly();
  const ending = useEndFeature(brand);
  const checkout = useFeatureCheckout(brand);
  // Paying leaves the page: the button stays busy until it has.
  const busy = ending.isPending || checkout.isPending || checkout.isSuccess;
  const open = feature.status === 'pending' || feature.status === 'live';
  // A live feature can be ended early (no refund); one awaiting approval withdrawn only while
  // nothing was paid for it: the server's canEnd / canWithdraw say which, on the owner's own.
  const withdrawable = feature.canWithdraw === true;
  const endable = feature.canEnd === true;
  const expires = dayOf(feature.expiresAt);

  const end = async () => {
    const yes = await confirmed(
      withdrawable
        ? {
            title: 'Withdraw your feature?',
            message: "Nothing has been paid for it, so nothing is lost. You can feature your brand again afterwards.",
            confirmLabel: 'Withdraw feature',
            danger: true,
          }
        : {
            title: 'End your feature early?',
            message:
              `It leaves the Pitch Area now and brands can no longer pitch to it. Ending early gives no refund. Pitches you received stay in ${featureOnly ? 'Pitches Received' : 'Requests'}.`,
            confirmLabel: 'End feature',
            danger: true,
          },
    );
    if (yes) ending.mutate(feature.id);
  };

  const pay = () => {
    checkout.mutate(feature.id);
  };

  let text: string;
  if (feature.status === 'live') text = `It's live in the Pitch Area until ${expires ?? 'the end of its term'}. Pitches arrive in your received requests.`;
  else if (feature.status === 'pending' && feature.paid === false) text = "It's not paid yet. Pay for it and we'll review it.";
  else if (feature.status === 'pending') text = 'We normally approve features within 24 hours and confirm by email.';
  else if (feature.status === 'refused')
    text = `We couldn't approve it${feature.refusedReason ? `: ${feature.refusedReason}` : '.'} ${
      feature.payWith === 'product' ? "We've emailed you about your payment's refund." : 'Your credits were returned.'
    }`;
  else if (feature.status === 'expired') text = 'Its term is over. You can feature your brand again.';
  else if (feature.approvedAt === null) text = 'You withdrew it before it went live. You can feature your brand again.';
  else text = 'You ended it early. You can feature your brand again.';

  return (
    <section className="pitch-owner" aria-label="Your feature">
      <p className="pitch-owner__status">
        <span className={`badge ${feature.status === 'live' ? 'badge--saved' : 'badge--current'}`}>{STATUS_LABEL[feature.status]}</span>
      </p>
      <p>{text}</p>
      <div className="actions">
        {feature.status === 'pending' && feature.paid === false && (
          <Button busy={busy} onClick={pay}>
            Pay for your feature
          </Button>
        )}
        {feature.status === 'live' && (
          <Link to="/requests/received" className="button button--secondary">
            See pitches received
          </Link>
        )}
        {(endable || withdrawable) && (
          <Button variant="danger" busy={busy} onClick={() => void end()}>
            {withdrawable ? 'Withdraw feature' : 'End feature early'}
          </Button>
        )}
        {!open && (
          <Link to="/pitch/new" className="button button--primary">
            Feature your brand again
          </Link>
        )}
      </div>
    </section>
  );
}

/** /pitch/{_id}: the feature in full; Pitch (1 credit) for others, its status for the owner. */
export function FeatureDetailPage() {
  const { _id: featureId = '' } = useParams();
  const brand = useCurrentBrandId();
  const item = useFeature(brand, featureId);
  const [pitching, setPitching] = useState(false);
  const suspended = useSelectedBrandSuspended();
  const navigate = useNavigate();

  if (item.isError) {
    const gone = item.error instanceof ApiError && item.error.status === 404;
    return (
      <div className="pitch pitch--narrow">
        <Link to={PITCH_PATH} className="back-link">
          ← Pitch Area
        </Link>
        <h1 className="page-title">{gone ? "This feature isn't in the Pitch Area" : 'Pitch'}</h1>
        {gone ? (
          <Alert tone="info">
            <p>It may have ended or expired. Have a look at the features that are live now.</p>
          </Alert>
        ) : (
          <LoadFailed
            title="We couldn't load this feature"
            error={item.error}
            retry={() => {
              void item.refetch();
            }}
          />
        )}
      </div>
    );
  }
  if (!item.data || brand === null) return <PageLoader />;
  const { feature, options } = item.data;
  const closes = dayOf(feature.closingDate);
  const masked = !feature.nameVisible;

  return (
    <div className="pitch pitch--narrow">
      <Link to={PITCH_PATH} className="back-link">
        ← Pitch Area
      </Link>
      <article className="feature-detail">
        <header className="feature-detail__head">
          <BrandLogo name={feature.brand.name} logoUrl={feature.brand.logoUrl} masked={masked} size="lg" />
          <div>
            <p className={masked ? 'feature-card__brand brand-name--masked' : 'feature-card__brand'}>
              {feature.brand.name}
              {feature.own && <span className="badge badge--current">Your feature</span>}
            </p>
            {feature.brand.category && <p className="feature-card__category">{feature.brand.category}</p>}
            <h1 className="page-title">{feature.title}</h1>
          </div>
        </header>

        {feature.own && <OwnerPanel feature={feature} brand={brand} />}

        <dl className="feature-facts feature-facts--full">
          <div>
            <dt>{feature.own ? 'You offer' : 'They offer'}</dt>
            <dd>{feature.offer}</dd>
          </div>
          <div>
            <dt>{feature.own ? "You're looking for" : "They're looking for"}</dt>
            <dd>{feature.lookingFor}</dd>
          </div>
          <div>
            <dt>Kinds of collaboration</dt>
            <dd>
              <ul className="chips">
                {feature.collabKinds.map((kind) => (
                  <li key={kind} className="chip">
                    {kind}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
          {feature.audience && (
            <div>
              <dt>Audience</dt>
              <dd>{feature.audience}</dd>
            </div>
          )}
          <div>
            <dt>Closing date</dt>
            <dd>{closes ?? 'None: open until the feature ends'}</dd>
          </div>
        </dl>

        {!feature.own && (
          <section className="feature-detail__pitch" aria-label="Pitch">
            {feature.pitch ? (
              <Alert tone="success" title="You've pitched to this feature">
                <p>
                  Sent {dayOf(feature.pitch.createdAt)}. You'll find it in <Link to="/requests/sent">Requests sent</Link>.
                </p>
              </Alert>
            ) : feature.canPitch && suspended ? (
              // Like Send request: not offered while the member's brand is suspended (the server refuses it).
              <Alert tone="info" title="Pitching is paused">
                <p>Your brand is suspended, so it can't send pitches.</p>
              </Alert>
            ) : feature.canPitch ? (
              <>
                <p className="muted">Pitching costs {options.pitchCost} credit. If they accept, you both get each other's contact details.</p>
                <Button
                  onClick={() => {
                    setPitching(true);
                  }}
                >
                  Pitch
                </Button>
              </>
            ) : (
              <Alert tone="info" title="This feature is no longer taking pitches">
                <p>It has ended or expired.</p>
              </Alert>
            )}
          </section>
        )}
        {!feature.own && (
          <section className="feature-detail__trust" aria-label="Safety">
            <TrustActions brandId={feature.brand.id} brandName={feature.brand.name} onBlocked={() => void navigate(PITCH_PATH, { replace: true })} />
          </section>
        )}
      </article>
      {!feature.own && (
        <PitchDialog
          key={feature.id}
          feature={feature}
          options={options}
          brand={brand}
          open={pitching}
          onClose={() => {
            setPitching(false);
          }}
        />
      )}
    </div>
  );
}

/** /pitch/jump/{_id}: the link in emails opens the feature. */
export function JumpToFeaturePage() {
  const { _id: featureId = '' } = useParams();
  return <Navigate to={featurePath(featureId)} replace />;
}
