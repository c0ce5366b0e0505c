import { useId, useState, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError, describeError } from '@/lib/api';
import { useGiftCredits } from '../api/actions';
import { CREDIT_KINDS, type GiftInput } from '../api/console';

type Errors = Partial<Record<keyof GiftInput, string>>;

function fieldErrors(error: unknown): Errors {
  if (!(error instanceof ApiError)) return {};
  const body = error.body as { errors?: Errors } | undefined;
  return body?.errors ?? {};
}

/** Gift credits to a member's account (POST admin/credits/grant). */
export function CreditsSection() {
  const [params] = useSearchParams();
  const [form, setForm] = useState({ email: params.get('email') ?? '', amount: '3', kind: 'gifted', days: '30' });
  const [done, setDone] = useState<string | null>(null);
  const id = useId();
  const gift = useGiftCredits();
  const errors = gift.isError ? fieldErrors(gift.error) : {};
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(null);
    gift.mutate(
      { email: form.email.trim(), amount: Number(form.amount), kind: form.kind, days: Number(form.days) },
      {
        onSuccess: (result, input) => {
          setDone(
            `${input.amount} credit${input.amount === 1 ? '' : 's'} given to ${input.email}, valid ${input.days} days. They now have ${result.credits.available} available.`,
          );
        },
      },
    );
  };
  const field = (name: keyof typeof form, label: string, props: Record<string, unknown>) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className="field__input"
        value={form[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
        onChange={(event) => { setForm({ ...form, [name]: event.target.value }); }}
        {...props}
      />
      {errors[name] && (
        <p className="field__error" id={`${id}-${name}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );
  return (
    <section className="admin__section">
      <p className="admin__lead">Credits for a member&apos;s account, usable at once and until they expire.</p>
      <form className="form card admin__form" onSubmit={submit} noValidate>
        {field('email', 'Member email', { type: 'email', autoComplete: 'off', required: true })}
        <div className="admin__form-row">
          {field('amount', 'Credits', { type: 'number', min: 1, max: 100, step: 1, inputMode: 'numeric' })}
          {field('days', 'Valid for (days)', { type: 'number', min: 1, max: 366, step: 1, inputMode: 'numeric' })}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-kind`}>
            Kind
          </label>
          <select
            id={`${id}-kind`}
            className="field__input"
            value={form.kind}
            onChange={(event) => { setForm({ ...form, kind: event.target.value }); }}
          >
            {CREDIT_KINDS.map((kind) => (
              <option key={kind.value} value={kind.value}>
                {kind.label}
              </option>
            ))}
          </select>
        </div>
        {gift.isError && <Alert>{describeError(gift.error)}</Alert>}
        {done && <Alert tone="success">{done}</Alert>}
        <Button type="submit" busy={gift.isPending}>
          Gift credits
        </Button>
      </form>
    </section>
  );
}
