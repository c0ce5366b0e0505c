import { useState, type SubmitEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { formErrorOf, showFieldErrors } from '@/components/form/server-errors';
import { TextAreaField } from '@/components/form/TextAreaField';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import { PageLoader } from '@/components/ui/PageLoader';
import { openSubscriptionOverlay, paymentRefusal } from '@/features/subscriptions';
import { ApiError, describeError } from '@/lib/api';
import { useCurrentBrandId } from '@/lib/session-state';
import { isFeatureOnlySession } from '@/lib/session';
import { useCreateFeature, useMyFeatures, STATUS_LABEL, type NewFeature, type PitchOptions } from '../api/pitch';
import { featurePath, PITCH_PATH } from '../paths';

const maxLength = (max: number) => (value: string) =>
  value.trim().length > max ? `Please keep this to ${max} characters or fewer.` : null;
const TITLE_RULES = [maxLength(100)];
const LONG_RULES = [maxLength(1000)];
const AUDIENCE_RULES = [maxLength(300)];
export const TERMS_REQUIRED = 'Please accept the feature terms to continue';

function todayIso(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The feature-terms popup (SPEC section 1): it must be accepted before the feature is sent. */
function TermsDialog({
  open,
  options,
  featureOnly,
  months,
  busy,
  error,
  onAccept,
  onClose,
}: {
  readonly open: boolean;
  readonly options: PitchOptions;
  readonly featureOnly: boolean;
  readonly months: number;
  readonly busy: boolean;
  readonly error: string | null;
  readonly onAccept: () => void;
  readonly onClose: () => void;
}) {
  const [accepted, setAccepted] = useState(false);
  const [missing, setMissing] = useState(false);
  return (
    <Modal open={open} width={800} title="Feature terms" onClose={onClose} closeOnOverlayClick={false}>
      <div className="feature-terms">
        <ul className="feature-terms__list">
          {options.terms.map((term) => (
            <li key={term}>{term}</li>
          ))}
        </ul>
        <p className="feature-terms__cost">
          {featureOnly
            ? `Next you pay for your ${months}-month feature at checkout. We review it once it's paid.`
            : `Featuring your brand costs ${options.featureCost} credits, taken when you submit. If we don't approve it, they come back to you.`}
        </p>
        {error && (
          <Alert title="We couldn't submit your feature">
            <p>{error}</p>
          </Alert>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={accepted}
            onChange={(event) => {
              setAccepted(event.target.checked);
              setMissing(false);
            }}
            aria-invalid={missing || undefined}
          />{' '}
          I accept the feature terms
        </label>
        {missing && <p className="field__error">{TERMS_REQUIRED}</p>}
        <div className="actions actions--end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            busy={busy}
            onClick={() => {
              if (!accepted) {
                setMissing(true);
                return;
              }
              onAccept();
            }}
          >
            {featureOnly ? 'Accept and pay' : `Accept and feature (${options.featureCost} credits)`}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** /pitch/new: the opportunity, its term, the terms popup, then 3 credits (or checkout). */
export function NewFeaturePage() {
  const brand = useCurrentBrandId();
  const mine = useMyFeatures(brand);
  const navigate = useNavigate();
  const featureOnly = isFeatureOnlySession();
  const title = useField({ rules: TITLE_RULES });
  const offer = useField({ rules: LONG_RULES });
  const lookingFor = useField({ rules: LONG_RULES });
  const audience = useField({ required: false, rules: AUDIENCE_RULES });
  const closingDate = useField({ required: false });
  const [kinds, setKinds] = useState<readonly string[]>([]);
  const [kindsError, setKindsError] = useState<string | null>(null);
  const [months, setMonths] = useState(3);
  const [termsOpen, setTermsOpen] = useState(false);
  const create = useCreateFeature(brand ?? '', featureOnly);
  // Created, the page is on its way to the feature or the checkout: the button stays busy.
  const busy = create.isPending || create.isSuccess;
  const fieldMap = { title, offer, lookingFor, audience, closingDate };
  const kindsRefusal = (failure: unknown) => (failure instanceof ApiError ? failure.fieldErrors.collabKinds : undefined);
  const error =
    paymentRefusal(create.error) || kindsRefusal(create.error) !== undefined ? null : formErrorOf(create.error, fieldMap);

  if (mine.isPending || brand === null) return <PageLoader />;
  const options = mine.data?.options;
  const current = mine.data?.features[0];
  if (current && (current.status === 'pending' || current.status === 'live')) {
    return (
      <div className="pitch pitch--narrow">
        <Link to={PITCH_PATH} className="back-link">
          ← Pitch Area
        </Link>
        <h1 className="page-title">Feature your brand</h1>
        <Alert tone="info" title={`You already have a feature: ${STATUS_LABEL[current.status]}`}>
          <p>A brand can have one feature at a time. End it, or wait for it to expire, before creating a new one.</p>
          <Link to={featurePath(current.id)} className="button button--secondary alert__action">
            View your feature
          </Link>
        </Alert>
      </div>
    );
  }
  if (!options) {
    return (
      <Alert title="We couldn't load this page">
        <p>{describeError(mine.error)}</p>
      </Alert>
    );
  }

  const checkForm = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const errors = [title.validate(), offer.validate(), lookingFor.validate(), audience.validate()];
    const date = closingDate.value;
    if (date && date <= todayIso()) {
      closingDate.setError('The closing date must be in the future');
      errors.push('closingDate');
    }
    const kindError = kinds.length === 0 ? 'Choose at least one kind of collaboration' : null;
    setKindsError(kindError);
    if (errors.some((found) => found !== null) || kindError) return;
    create.reset();
    setTermsOpen(true);
  };

  const submit = () => {
    if (busy) return;
    const body: NewFeature = {
      title: title.value.trim(),
      offer: offer.value.trim(),
      lookingFor: lookingFor.value.trim(),
      collabKinds: kinds,
      audience: audience.value.trim(),
      closingDate: closingDate.value || null,
      months,
      acceptTerms: true,
    };
    create.mutate(body, {
      onSuccess: ({ created, checkout }) => {
        if (checkout) return; // leaving for the checkout
        setTermsOpen(false);
        void navigate(featurePath(created.feature.id));
      },
      onError: (failure) => {
        const refusal = paymentRefusal(failure);
        if (refusal) {
          setTermsOpen(false);
          openSubscriptionOverlay({ reason: refusal.reason, type: 'pitch', requiredCredits: options.featureCost });
          return;
        }
        // A refusal of the fields is shown on them, with the terms dialog closed.
        const kindsMessage = kindsRefusal(failure);
        if (kindsMessage !== undefined) setKindsError(kindsMessage);
        if (showFieldErrors(failure, fieldMap, { focus: false }) || kindsMessage !== undefined) setTermsOpen(false);
      },
    });
  };

  return (
    <div className="pitch pitch--narrow">
      <Link to={PITCH_PATH} className="back-link">
        ← Pitch Area
      </Link>
      <header className="page-header">
        <div>
          <h1 className="page-title">Feature your brand</h1>
          <p className="page-header__lead">
            Describe the collaboration you're looking for. Once approved, it's shown in the Pitch Area for {months}{' '}
            months and brands pitch to you.
          </p>
        </div>
      </header>
      <p className="pitch-cost" role="note">
        {featureOnly
          ? 'Your feature is a paid product: 3 or 6 months, paid at checkout after you accept the terms.'
          : `Featuring costs ${options.featureCost} credits. Pitching to a feature costs ${options.pitchCost} credit.`}
      </p>
      <form className="form feature-form" noValidate onSubmit={checkForm}>
        <FormField field={title} name="title" label="Headline" placeholder="e.g. Partners for our winter gift box" />
        <TextAreaField field={offer} name="offer" label="What you offer" placeholder="A spot in our gift box, sent to 5,000 subscribers…" />
        <TextAreaField field={lookingFor} name="lookingFor" label="What you're looking for" placeholder="Independent brands with a giftable product…" />
        <fieldset className="field feature-form__kinds" aria-invalid={kindsError ? true : undefined}>
          <legend className="field__label">Kinds of collaboration</legend>
          <div className="feature-form__options">
            {options.collabKinds.map((kind) => (
              <label key={kind} className="checkbox">
                <input
                  type="checkbox"
                  checked={kinds.includes(kind)}
                  onChange={(event) => {
                    setKindsError(null);
                    setKinds(event.target.checked ? [...kinds, kind] : kinds.filter((k) => k !== kind));
                  }}
                />{' '}
                {kind}
              </label>
            ))}
          </div>
          {kindsError && <p className="field__error">{kindsError}</p>}
        </fieldset>
        <FormField field={audience} name="audience" label="Audience" optional placeholder="e.g. UK, 25-44, gift buyers" />
        <FormField field={closingDate} name="closingDate" label="Closing date" type="date" optional min={todayIso()} />
        <fieldset className="field">
          <legend className="field__label">Term</legend>
          <div className="feature-form__options">
            {options.months.map((term) => (
              <label key={term} className="checkbox">
                <input
                  type="radio"
                  name="months"
                  checked={months === term}
                  onChange={() => {
                    setMonths(term);
                  }}
                />{' '}
                {term} months
              </label>
            ))}
          </div>
        </fieldset>
        <div className="actions actions--end">
          <Button type="submit">Continue</Button>
        </div>
      </form>
      <TermsDialog
        open={termsOpen}
        options={options}
        featureOnly={featureOnly}
        months={months}
        busy={busy}
        error={error}
        onAccept={submit}
        onClose={() => {
          setTermsOpen(false);
        }}
      />
    </div>
  );
}
