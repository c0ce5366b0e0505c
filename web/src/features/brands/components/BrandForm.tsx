import { useEffect, useId, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { FormField } from '@/components/form/FormField';
import { TextAreaField } from '@/components/form/TextAreaField';
import { useField, type Field } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError, describeError, SessionEndedError } from '@/lib/api';
import { email, url, type Rule } from '@/lib/validation';
import {
  checkLogoFile,
  createBrand,
  LOGO_TYPES,
  SOCIAL_LABELS,
  SOCIAL_NETWORKS,
  updateBrand,
  uploadLogo,
  type BrandInput,
  type BrandOptions,
  type BrandProfile,
  type SocialNetwork,
} from '../api/brands';
import { BrandLogo } from './BrandLogo';
import { CheckboxGroup } from './CheckboxGroup';
import { DESCRIPTION_MAX, maxLength, NAME_MAX, phone } from '../utils';
import { CountryPicker } from './CountryPicker';
import { SelectField } from './SelectField';

const URL_RULES: readonly Rule[] = [url];
const EMAIL_RULES: readonly Rule[] = [email];
const NAME_RULES: readonly Rule[] = [maxLength(NAME_MAX)];
const DESCRIPTION_RULES: readonly Rule[] = [maxLength(DESCRIPTION_MAX)];
const CONTACT_NAME_RULES: readonly Rule[] = [maxLength(NAME_MAX)];
const PHONE_RULES: readonly Rule[] = [phone];

export interface SavedBrand {
  readonly brand: BrandProfile;
  readonly created: boolean;
  /** Set when a match run started for the brand. */
  readonly runId: string | null;
  /** The profile saved but the logo did not upload: the message to show. */
  readonly logoError: string | null;
}

export interface BrandFormProps {
  /** The brand to edit; null adds a new one. */
  readonly brand: BrandProfile | null;
  readonly options: BrandOptions;
  readonly onSaved: (saved: SavedBrand) => void;
  readonly onCancel: () => void;
}

type GroupKey = 'ageBands' | 'genders' | 'countries' | 'values' | 'collabKinds' | 'hideName' | 'logo';

const FIX_FIELDS = 'Please check the highlighted fields';

function useOptionalUrl(initial: string | null | undefined): Field {
  return useField({ initialValue: initial ?? '', required: false, rules: URL_RULES });
}

/** A brand's profile: who they are, who they reach, what they want to do, and how to reach them. */
export function BrandForm({ brand, options, onSaved, onCancel }: BrandFormProps) {
  const formId = useId();
  const name = useField({ initialValue: brand?.name ?? '', rules: NAME_RULES });
  const website = useOptionalUrl(brand?.website);
  const description = useField({ initialValue: brand?.description ?? '', required: false, rules: DESCRIPTION_RULES });
  const category = useField({ initialValue: brand?.category ?? '' });
  const companySize = useField({ initialValue: brand?.companySize ?? '', required: false });
  const contactName = useField({ initialValue: brand?.contact?.name ?? '', required: false, rules: CONTACT_NAME_RULES });
  const contactEmail = useField({ initialValue: brand?.contact?.email ?? '', required: false, rules: EMAIL_RULES });
  const contactPhone = useField({ initialValue: brand?.contact?.phone ?? '', required: false, rules: PHONE_RULES });
  const social: Record<SocialNetwork, Field> = {
    instagram: useOptionalUrl(brand?.social.instagram),
    tiktok: useOptionalUrl(brand?.social.tiktok),
    facebook: useOptionalUrl(brand?.social.facebook),
    linkedin: useOptionalUrl(brand?.social.linkedin),
    x: useOptionalUrl(brand?.social.x),
    youtube: useOptionalUrl(brand?.social.youtube),
  };
  const [ageBands, setAgeBands] = useState<readonly string[]>(brand?.audience.ageBands ?? []);
  const [genders, setGenders] = useState<readonly string[]>(brand?.audience.genders ?? []);
  const [countries, setCountries] = useState<readonly string[]>(brand?.audience.countries ?? []);
  const [values, setValues] = useState<readonly string[]>(brand?.values ?? []);
  const [collabKinds, setCollabKinds] = useState<readonly string[]>(brand?.collabKinds ?? []);
  const [hideName, setHideName] = useState(brand?.hideName ?? false);
  const [groupErrors, setGroupErrors] = useState<Partial<Record<GroupKey, string>>>({});
  const [formError, setFormError] = useState<{ title: string; messages: string[] } | null>(null);
  const [saving, setSaving] = useState(false);

  const [logoFile, setLogoFile] = useState<File | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [logoPreview, setLogoPreview] = useState<string | null>(null);
  const logoInput = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(
    () => () => {
      if (logoPreview) URL.revokeObjectURL(logoPreview);
    },
    [logoPreview],
  );

  const textFields: Record<string, Field> = {
    name,
    website,
    description,
    category,
    companySize,
    'contact.name': contactName,
    'contact.email': contactEmail,
    'contact.phone': contactPhone,
    ...Object.fromEntries(SOCIAL_NETWORKS.map((network) => [`social.${network}`, social[network]])),
  };

  const clearGroupError = (key: GroupKey) => {
    setGroupErrors((current) => (key in current ? { ...current, [key]: undefined } : current));
  };

  const onLogoChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = checkLogoFile(file);
    if (problem) {
      setGroupErrors((current) => ({ ...current, logo: problem }));
      setLogoFile(null);
      setLogoPreview(null);
      event.target.value = '';
      return;
    }
    clearGroupError('logo');
    setRemoveLogo(false);
    setLogoFile(file);
    setLogoPreview(typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null);
  };

  const clearLogo = () => {
    setLogoFile(null);
    setLogoPreview(null);
    if (logoInput.current) logoInput.current.value = '';
  };

  /** Puts a 400's per-field messages on their fields; returns the ones no field took. */
  const showServerErrors = (errors: Readonly<Record<string, string>>): string[] => {
    const unplaced: string[] = [];
    const groups: Partial<Record<GroupKey, string>> = {};
    for (const [key, message] of Object.entries(errors)) {
      const bare = key.replace(/^(audience|contact|social)\./, '');
      const field =
        textFields[key] ?? textFields[`contact.${key}`] ?? textFields[`social.${key}`] ?? textFields[bare];
      if (field) {
        field.setError(message);
      } else if (['ageBands', 'genders', 'countries', 'values', 'collabKinds', 'hideName', 'logo', 'logoKey'].includes(bare)) {
        groups[bare === 'logoKey' ? 'logo' : (bare as GroupKey)] = message;
      } else {
        unplaced.push(message);
      }
    }
    setGroupErrors(groups);
    return unplaced;
  };

  const focusFirstError = () => {
    requestAnimationFrame(() => {
      const form = document.getElementById(formId);
      const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
      const target =
        invalid instanceof HTMLFieldSetElement ? invalid.querySelector<HTMLElement>('input') : invalid;
      (target ?? errorRef.current)?.focus();
    });
  };

  const input = (): BrandInput => ({
    name: name.value.trim(),
    website: website.value.trim() || null,
    description: description.value.trim(),
    category: category.value,
    companySize: companySize.value,
    audience: { ageBands, genders, countries },
    values,
    collabKinds,
    social: Object.fromEntries(
      SOCIAL_NETWORKS.map((network) => [network, social[network].value.trim() || null]),
    ),
    contact: {
      name: contactName.value.trim() || null,
      email: contactEmail.value.trim() || null,
      phone: contactPhone.value.trim() || null,
    },
    hideName,
  });

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const problems = Object.values(textFields)
      .map((field) => field.validate())
      .filter((message) => message !== null);
    if (problems.length > 0) {
      setFormError({ title: FIX_FIELDS, messages: [] });
      focusFirstError();
      return;
    }
    setSaving(true);
    let saved: BrandProfile;
    let runId: string | null;
    try {
      const result =
        brand === null
          ? await createBrand(input())
          : await updateBrand(brand.id, removeLogo ? { ...input(), logoKey: null } : input());
      saved = result.brand;
      runId = result.runId;
    } catch (error) {
      setSaving(false);
      if (error instanceof SessionEndedError) return;
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
      if (Object.keys(fieldErrors).length > 0) {
        const unplaced = showServerErrors(fieldErrors);
        setFormError({ title: FIX_FIELDS, messages: unplaced });
      } else {
        setFormError({ title: "We couldn't save your brand", messages: [describeError(error)] });
      }
      focusFirstError();
      return;
    }
    let logoError: string | null = null;
    if (logoFile) {
      try {
        const result = await uploadLogo(saved.id, logoFile);
        saved = result.brand;
        runId = result.runId ?? runId;
      } catch (error) {
        if (error instanceof SessionEndedError) return;
        logoError = describeError(error);
      }
    }
    setSaving(false);
    onSaved({ brand: saved, created: brand === null, runId, logoError });
  };

  const shownLogo = logoPreview ?? (removeLogo ? null : (brand?.logoUrl ?? null));

  return (
    <form id={formId} className="form brand-form" noValidate onSubmit={(event) => void submit(event)}>
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

      <section className="card brand-form__section" aria-labelledby={`${formId}-about`}>
        <h2 id={`${formId}-about`} className="card__subtitle">
          About your brand
        </h2>
        <FormField field={name} name="name" label="Brand name" autoComplete="organization" />
        <div className="field logo-field">
          <label className="field__label" htmlFor={`${formId}-logo`}>
            Logo<span className="field__optional"> (optional)</span>
          </label>
          <div className="logo-field__row">
            {shownLogo ? (
              <img
                className="brand-logo brand-logo--lg"
                src={shownLogo}
                alt={logoPreview ? 'Preview of your new logo' : 'Your current logo'}
              />
            ) : (
              <BrandLogo name={name.value || '?'} logoUrl={null} size="lg" />
            )}
            <div className="logo-field__controls">
              <input
                ref={logoInput}
                id={`${formId}-logo`}
                type="file"
                accept={LOGO_TYPES.join(',')}
                className="logo-field__input"
                aria-describedby={`${formId}-logo-hint${groupErrors.logo ? ` ${formId}-logo-error` : ''}`}
                aria-invalid={groupErrors.logo ? true : undefined}
                onChange={onLogoChange}
              />
              <p id={`${formId}-logo-hint`} className="field__hint">
                PNG, JPEG or WebP, up to 2 MB. A square image looks best.
                {logoFile && ' It uploads when you save.'}
              </p>
              {logoFile && (
                <button type="button" className="link-button" onClick={clearLogo}>
                  {brand?.logoUrl ? 'Keep the current logo' : 'Remove this image'}
                </button>
              )}
              {!logoFile && brand?.logoUrl && (
                <button
                  type="button"
                  className="link-button"
                  aria-pressed={removeLogo}
                  onClick={() => {
                    setRemoveLogo((current) => !current);
                  }}
                >
                  {removeLogo ? 'Keep the current logo' : 'Remove the logo'}
                </button>
              )}
              {removeLogo && <p className="field__hint">The logo is removed when you save.</p>}
            </div>
          </div>
          {groupErrors.logo && (
            <p id={`${formId}-logo-error`} className="field__error">
              {groupErrors.logo}
            </p>
          )}
        </div>
        <FormField
          field={website}
          name="website"
          label="Website"
          optional
          placeholder="https://"
          inputMode="url"
          autoComplete="url"
        />
        <TextAreaField field={description} name="description" label="Description (optional)" rows={4} />
        <div className="brand-form__pair">
          <SelectField
            field={category}
            name="category"
            label="Category"
            options={options.categories}
            placeholder="Choose a category"
          />
          <SelectField
            field={companySize}
            name="companySize"
            label="Company size"
            options={options.companySizes}
            placeholder="Choose a size"
            optional
          />
        </div>
      </section>

      <section className="card brand-form__section" aria-labelledby={`${formId}-audience`}>
        <h2 id={`${formId}-audience`} className="card__subtitle">
          Your audience
        </h2>
        <p className="muted small">We match you with brands that reach the same people.</p>
        <CheckboxGroup
          legend="Age bands"
          name="ageBands"
          options={options.ageBands}
          selected={ageBands}
          error={groupErrors.ageBands}
          onChange={(next) => {
            setAgeBands(next);
            clearGroupError('ageBands');
          }}
        />
        <CheckboxGroup
          legend="Genders"
          name="genders"
          options={options.genders}
          selected={genders}
          error={groupErrors.genders}
          onChange={(next) => {
            setGenders(next);
            clearGroupError('genders');
          }}
        />
        <CountryPicker
          countries={options.countries}
          selected={countries}
          error={groupErrors.countries}
          onChange={(next) => {
            setCountries(next);
            clearGroupError('countries');
          }}
        />
      </section>

      <section className="card brand-form__section" aria-labelledby={`${formId}-partners`}>
        <h2 id={`${formId}-partners`} className="card__subtitle">
          What you look for
        </h2>
        <CheckboxGroup
          legend="Values"
          name="values"
          options={options.values}
          selected={values}
          error={groupErrors.values}
          hint="What your brand stands for. Shared values make a strong partnership."
          onChange={(next) => {
            setValues(next);
            clearGroupError('values');
          }}
        />
        <CheckboxGroup
          legend="Collaborations you want"
          name="collabKinds"
          options={options.collabKinds}
          selected={collabKinds}
          error={groupErrors.collabKinds}
          onChange={(next) => {
            setCollabKinds(next);
            clearGroupError('collabKinds');
          }}
        />
      </section>

      <section className="card brand-form__section" aria-labelledby={`${formId}-social`}>
        <h2 id={`${formId}-social`} className="card__subtitle">
          Social links
        </h2>
        <div className="brand-form__grid">
          {SOCIAL_NETWORKS.map((network) => (
            <FormField
              key={network}
              field={social[network]}
              name={`social-${network}`}
              label={SOCIAL_LABELS[network]}
              optional
              placeholder="https://"
              inputMode="url"
            />
          ))}
        </div>
      </section>

      <section className="card brand-form__section" aria-labelledby={`${formId}-contact`}>
        <h2 id={`${formId}-contact`} className="card__subtitle">
          Contact details
        </h2>
        <p className="brand-form__private">Only brands you're connected with see these.</p>
        <div className="brand-form__grid">
          <FormField field={contactName} name="contactName" label="Contact name" optional autoComplete="name" />
          <FormField field={contactEmail} name="contactEmail" label="Contact email" type="email" optional autoComplete="email" />
          <FormField field={contactPhone} name="phone" label="Contact phone" optional autoComplete="tel" />
        </div>
      </section>

      <section className="card brand-form__section" aria-labelledby={`${formId}-visibility`}>
        <h2 id={`${formId}-visibility`} className="card__subtitle">
          Visibility
        </h2>
        <label className="toggle">
          <input
            type="checkbox"
            role="switch"
            checked={hideName}
            aria-describedby={`${formId}-hide-hint`}
            onChange={(event) => {
              setHideName(event.target.checked);
              clearGroupError('hideName');
            }}
          />
          <span className="toggle__track" aria-hidden="true" />
          <span className="toggle__label">Hide my brand name in Matches</span>
        </label>
        <p id={`${formId}-hide-hint`} className="field__hint">
          Other brands then see a description such as “A {category.value || 'food & drink'} brand” instead of your
          name, until you connect.
        </p>
        {groupErrors.hideName && <p className="field__error">{groupErrors.hideName}</p>}
      </section>

      <div className="brand-form__footer">
        <Button type="submit" busy={saving}>
          {brand === null ? 'Add brand' : 'Save changes'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
