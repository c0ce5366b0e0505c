import { useId, useRef, useState, type SubmitEvent } from 'react';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError, describeError, messageOf } from '@/lib/api';
import type { BrandOptions, BrandProfile } from '../api/brands';
import { useSaveBrand, type SavedBrand } from '../api/save-brand';
import { useBrandForm } from '../hooks/use-brand-form';
import { useLogoChoice } from '../hooks/use-logo-choice';
import {
  AboutSection,
  AudienceSection,
  ContactSection,
  PartnersSection,
  SocialSection,
  VisibilitySection,
} from './BrandFormSections';
import { LogoField } from './LogoField';

export interface BrandFormProps {
  /** The brand to edit; null adds a new one. */
  readonly brand: BrandProfile | null;
  readonly options: BrandOptions;
  readonly onSaved: (saved: SavedBrand) => void;
  readonly onCancel: () => void;
}

const FIX_FIELDS = 'Please check the highlighted fields';

interface FormError {
  readonly title: string;
  readonly messages: readonly string[];
}

/** A brand's profile: who they are, who they reach, what they want to do, and how to reach them. */
export function BrandForm({ brand, options, onSaved, onCancel }: BrandFormProps) {
  const formId = useId();
  const form = useBrandForm(brand);
  const logo = useLogoChoice(brand, (problem) => {
    form.setGroupError('logo', problem ?? undefined);
  });
  const save = useSaveBrand();
  const [formError, setFormError] = useState<FormError | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  const focusFirstError = () => {
    requestAnimationFrame(() => {
      const element = document.getElementById(formId);
      const invalid = element?.querySelector<HTMLElement>('[aria-invalid="true"]');
      const target = invalid instanceof HTMLFieldSetElement ? invalid.querySelector<HTMLElement>('input') : invalid;
      (target ?? errorRef.current)?.focus();
    });
  };

  /** A refused save: a 400's messages on their fields, else the server's message above them. */
  const refused = (error: unknown) => {
    if (messageOf(error) === null) return;
    const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
    if (Object.keys(fieldErrors).length > 0) {
      setFormError({ title: FIX_FIELDS, messages: form.showServerErrors(fieldErrors) });
    } else {
      setFormError({ title: "We couldn't save your brand", messages: [describeError(error)] });
    }
    focusFirstError();
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate()) {
      setFormError({ title: FIX_FIELDS, messages: [] });
      focusFirstError();
      return;
    }
    save.mutate(
      { brand, input: form.input(), logo: logo.file, removeLogo: logo.remove },
      { onSuccess: onSaved, onError: refused },
    );
  };

  return (
    <form id={formId} className="form brand-form" noValidate onSubmit={submit}>
      {formError && (
        <div ref={errorRef} tabIndex={-1}>
          <Alert title={formError.title}>
            {formError.messages.length > 0 && (
              <ul className="brand-form__errors">
                {formError.messages.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
          </Alert>
        </div>
      )}

      <AboutSection
        formId={formId}
        form={form}
        options={options}
        logo={<LogoField id={`${formId}-logo`} logo={logo} brandName={form.name.value} error={form.groupErrors.logo} />}
      />
      <AudienceSection formId={formId} form={form} options={options} />
      <PartnersSection formId={formId} form={form} options={options} />
      <SocialSection formId={formId} form={form} />
      <ContactSection formId={formId} form={form} />
      <VisibilitySection formId={formId} form={form} />

      <div className="brand-form__footer">
        <Button type="submit" busy={save.isPending}>
          {brand === null ? 'Add brand' : 'Save changes'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={save.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
