import type { ReactNode } from 'react';
import { FormField } from '@/components/form/FormField';
import { TextAreaField } from '@/components/form/TextAreaField';
import { SOCIAL_LABELS, SOCIAL_NETWORKS, type BrandOptions } from '../api/brands';
import type { BrandFormState } from '../hooks/use-brand-form';
import { CheckboxGroup } from './CheckboxGroup';
import { CountryPicker } from './CountryPicker';
import { SelectField } from './SelectField';

interface SectionProps {
  /** The form's id: each section's heading id derives from it. */
  readonly formId: string;
  readonly form: BrandFormState;
}

/** One card of the brand form, named by its heading. */
function Section({ id, title, children }: { readonly id: string; readonly title: string; readonly children: ReactNode }) {
  return (
    <section className="card brand-form__section" aria-labelledby={id}>
      <h2 id={id} className="card__subtitle">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * Who the brand is: name, logo (`logo`), website, description, category, niche (one of the
 * chosen category's: a new category clears a niche of the old one), price tier and size.
 */
export function AboutSection({ formId, form, options, logo }: SectionProps & { readonly options: BrandOptions; readonly logo: ReactNode }) {
  const nichesOf = (category: string) => options.niches[category] ?? [];
  const category = {
    ...form.category,
    setValue: (value: string) => {
      form.category.setValue(value);
      if (!nichesOf(value).includes(form.niche.value)) form.niche.setValue('');
    },
  };
  return (
    <Section id={`${formId}-about`} title="About your brand">
      <FormField field={form.name} name="name" label="Brand name" autoComplete="organization" />
      {logo}
      <FormField
        field={form.website}
        name="website"
        label="Website"
        optional
        placeholder="https://"
        inputMode="url"
        autoComplete="url"
      />
      <TextAreaField field={form.description} name="description" label="Description (optional)" rows={4} />
      <div className="brand-form__pair">
        <SelectField
          field={category}
          name="category"
          label="Category"
          options={options.categories}
          placeholder="Choose a category"
        />
        <SelectField
          field={form.companySize}
          name="companySize"
          label="Company size"
          options={options.companySizes}
          placeholder="Choose a size"
          optional
        />
      </div>
      <div className="brand-form__pair">
        <SelectField
          field={form.niche}
          name="niche"
          label="Niche"
          options={nichesOf(form.category.value)}
          placeholder={form.category.value ? 'Choose a niche' : 'Choose a category first'}
          optional
        />
        <SelectField
          field={form.priceTier}
          name="priceTier"
          label="Price tier"
          options={options.priceTiers}
          placeholder="Choose a price tier"
          optional
        />
      </div>
      <p className="muted small">
        Brands in your category can be good partners too. Those selling the same niche at a similar price are
        competitors: we suggest them less.
      </p>
    </Section>
  );
}

/** Who the brand reaches: audience size, age bands, genders and countries. */
export function AudienceSection({ formId, form, options }: SectionProps & { readonly options: BrandOptions }) {
  return (
    <Section id={`${formId}-audience`} title="Your audience">
      <p className="muted small">
        We match you with brands that reach the same people, and of a size that suits you both (the followers or
        list size of your biggest channel).
      </p>
      <SelectField
        field={form.audienceSize}
        name="audienceSize"
        label="Audience size"
        options={options.audienceSizes}
        placeholder="Followers or list size"
        optional
      />
      <CheckboxGroup
        legend="Age bands"
        name="ageBands"
        options={options.ageBands}
        selected={form.choices.ageBands}
        error={form.groupErrors.ageBands}
        onChange={(next) => {
          form.choose('ageBands', next);
        }}
      />
      <CheckboxGroup
        legend="Genders"
        name="genders"
        options={options.genders}
        selected={form.choices.genders}
        error={form.groupErrors.genders}
        onChange={(next) => {
          form.choose('genders', next);
        }}
      />
      <CountryPicker
        countries={options.countries}
        selected={form.choices.countries}
        error={form.groupErrors.countries}
        onChange={(next) => {
          form.choose('countries', next);
        }}
      />
    </Section>
  );
}

/** What the brand looks for: its values and the collaborations it wants. */
export function PartnersSection({ formId, form, options }: SectionProps & { readonly options: BrandOptions }) {
  return (
    <Section id={`${formId}-partners`} title="What you look for">
      <CheckboxGroup
        legend="Values"
        name="values"
        options={options.values}
        selected={form.choices.values}
        error={form.groupErrors.values}
        hint="What your brand stands for. Shared values make a strong partnership."
        onChange={(next) => {
          form.choose('values', next);
        }}
      />
      <CheckboxGroup
        legend="Collaborations you want"
        name="collabKinds"
        options={options.collabKinds}
        selected={form.choices.collabKinds}
        error={form.groupErrors.collabKinds}
        onChange={(next) => {
          form.choose('collabKinds', next);
        }}
      />
    </Section>
  );
}

export function SocialSection({ formId, form }: SectionProps) {
  return (
    <Section id={`${formId}-social`} title="Social links">
      <div className="brand-form__grid">
        {SOCIAL_NETWORKS.map((network) => (
          <FormField
            key={network}
            field={form.social[network]}
            name={`social-${network}`}
            label={SOCIAL_LABELS[network]}
            optional
            placeholder="https://"
            inputMode="url"
          />
        ))}
      </div>
    </Section>
  );
}

/** How connected brands reach the brand (private until they connect). */
export function ContactSection({ formId, form }: SectionProps) {
  return (
    <Section id={`${formId}-contact`} title="Contact details">
      <p className="brand-form__private">Only brands you're connected with see these.</p>
      <div className="brand-form__grid">
        <FormField field={form.contactName} name="contactName" label="Contact name" optional autoComplete="name" />
        <FormField field={form.contactEmail} name="contactEmail" label="Contact email" type="email" optional autoComplete="email" />
        <FormField field={form.contactPhone} name="phone" label="Contact phone" optional autoComplete="tel" />
      </div>
    </Section>
  );
}

/** Whether other brands see the brand's name in Matches. */
export function VisibilitySection({ formId, form }: SectionProps) {
  return (
    <Section id={`${formId}-visibility`} title="Visibility">
      <label className="toggle">
        <input
          type="checkbox"
          role="switch"
          checked={form.choices.hideName}
          aria-describedby={`${formId}-hide-hint`}
          onChange={(event) => {
            form.choose('hideName', event.target.checked);
          }}
        />
        <span className="toggle__track" aria-hidden="true" />
        <span className="toggle__label">Hide my brand name in Matches</span>
      </label>
      <p id={`${formId}-hide-hint`} className="field__hint">
        Other brands then see a description such as “A {form.category.value || 'food & drink'} brand” instead of your
        name, until you connect.
      </p>
      {form.groupErrors.hideName && <p className="field__error">{form.groupErrors.hideName}</p>}
    </Section>
  );
}
