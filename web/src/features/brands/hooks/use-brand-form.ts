import { useState } from 'react';
import { useField, type Field } from '@/components/form/use-field';
import { email, url, type Rule } from '@/lib/validation';
import { SOCIAL_NETWORKS, type BrandInput, type BrandProfile, type SocialNetwork } from '../api/brands';
import { DESCRIPTION_MAX, maxLength, NAME_MAX, phone } from '../utils';

const URL_RULES: readonly Rule[] = [url];
const EMAIL_RULES: readonly Rule[] = [email];
const NAME_RULES: readonly Rule[] = [maxLength(NAME_MAX)];
const DESCRIPTION_RULES: readonly Rule[] = [maxLength(DESCRIPTION_MAX)];
const CONTACT_NAME_RULES: readonly Rule[] = [maxLength(NAME_MAX)];
const PHONE_RULES: readonly Rule[] = [phone];

/** What the member picks rather than types: the audience, values, collaborations and visibility. */
export interface BrandChoices {
  readonly ageBands: readonly string[];
  readonly genders: readonly string[];
  readonly countries: readonly string[];
  readonly values: readonly string[];
  readonly collabKinds: readonly string[];
  readonly hideName: boolean;
}

/** A part of the form with one message for the whole (a group of choices, the logo). */
export type GroupKey = keyof BrandChoices | 'logo';

const GROUP_KEYS: readonly string[] = ['ageBands', 'genders', 'countries', 'values', 'collabKinds', 'hideName', 'logo'];

function initialChoices(brand: BrandProfile | null): BrandChoices {
  return {
    ageBands: brand?.audience.ageBands ?? [],
    genders: brand?.audience.genders ?? [],
    countries: brand?.audience.countries ?? [],
    values: brand?.values ?? [],
    collabKinds: brand?.collabKinds ?? [],
    hideName: brand?.hideName ?? false,
  };
}

function useOptionalUrl(initial: string | null | undefined): Field {
  return useField({ initialValue: initial ?? '', required: false, rules: URL_RULES });
}

/**
 * The state of the brand form: its text fields (checked as the member types them, see
 * useField), its choices, and the messages of each part. `input` is what is saved.
 */
export function useBrandForm(brand: BrandProfile | null) {
  const name = useField({ initialValue: brand?.name ?? '', rules: NAME_RULES });
  const website = useOptionalUrl(brand?.website);
  const description = useField({ initialValue: brand?.description ?? '', required: false, rules: DESCRIPTION_RULES });
  const category = useField({ initialValue: brand?.category ?? '' });
  const companySize = useField({ initialValue: brand?.companySize ?? '', required: false });
  const audienceSize = useField({ initialValue: brand?.audienceSize ?? '', required: false });
  const niche = useField({ initialValue: brand?.niche ?? '', required: false });
  const priceTier = useField({ initialValue: brand?.priceTier ?? '', required: false });
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
  const [choices, setChoices] = useState<BrandChoices>(() => initialChoices(brand));
  const [groupErrors, setGroupErrors] = useState<Partial<Record<GroupKey, string>>>({});

  /** The text fields by the names the server's per-field messages use. */
  const textFields: Record<string, Field> = {
    name,
    website,
    description,
    category,
    companySize,
    audienceSize,
    niche,
    priceTier,
    'contact.name': contactName,
    'contact.email': contactEmail,
    'contact.phone': contactPhone,
    ...Object.fromEntries(SOCIAL_NETWORKS.map((network) => [`social.${network}`, social[network]])),
  };

  /** Shows (or, with undefined, clears) the message of one part of the form. */
  const setGroupError = (key: GroupKey, message: string | undefined) => {
    setGroupErrors((current) => {
      if (message !== undefined) return { ...current, [key]: message };
      return key in current ? { ...current, [key]: undefined } : current;
    });
  };

  /** A new choice; its part's message goes. */
  const choose = <K extends keyof BrandChoices>(key: K, value: BrandChoices[K]) => {
    setChoices((current) => ({ ...current, [key]: value }));
    setGroupError(key, undefined);
  };

  /** Checks every text field and shows what is wrong; true when all are valid. */
  const validate = (): boolean =>
    Object.values(textFields)
      .map((field) => field.validate())
      .every((message) => message === null);

  /** Puts a 400's per-field messages on their fields and parts; returns the ones none took. */
  const showServerErrors = (errors: Readonly<Record<string, string>>): string[] => {
    const unplaced: string[] = [];
    const groups: Partial<Record<GroupKey, string>> = {};
    for (const [key, message] of Object.entries(errors)) {
      const bare = key.replace(/^(audience|contact|social)\./, '');
      const field =
        textFields[key] ?? textFields[`contact.${key}`] ?? textFields[`social.${key}`] ?? textFields[bare];
      if (field) {
        field.setError(message);
      } else if (GROUP_KEYS.includes(bare) || bare === 'logoKey') {
        groups[bare === 'logoKey' ? 'logo' : (bare as GroupKey)] = message;
      } else {
        unplaced.push(message);
      }
    }
    setGroupErrors(groups);
    return unplaced;
  };

  const input = (): BrandInput => ({
    name: name.value.trim(),
    website: website.value.trim() || null,
    description: description.value.trim(),
    category: category.value,
    companySize: companySize.value,
    audienceSize: audienceSize.value,
    niche: niche.value,
    priceTier: priceTier.value,
    audience: { ageBands: choices.ageBands, genders: choices.genders, countries: choices.countries },
    values: choices.values,
    collabKinds: choices.collabKinds,
    social: Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, social[network].value.trim() || null])),
    contact: {
      name: contactName.value.trim() || null,
      email: contactEmail.value.trim() || null,
      phone: contactPhone.value.trim() || null,
    },
    hideName: choices.hideName,
  });

  return {
    name,
    website,
    description,
    category,
    companySize,
    audienceSize,
    niche,
    priceTier,
    contactName,
    contactEmail,
    contactPhone,
    social,
    choices,
    choose,
    groupErrors,
    setGroupError,
    validate,
    showServerErrors,
    input,
  };
}

export type BrandFormState = ReturnType<typeof useBrandForm>;
