import { config } from './env';

/** Links to the public website shown in the app footer (hidden on public routes). */
export interface FooterLink {
  readonly label: string;
  readonly href: string;
}

export const FOOTER_LINKS: readonly FooterLink[] = [
  { label: 'Terms', href: `${config.siteUrl}/terms` },
  { label: 'Privacy', href: `${config.siteUrl}/privacy` },
  { label: 'FAQs', href: `${config.siteUrl}/faqs` },
];

export type SocialNetwork = 'instagram' | 'linkedin';

export interface SocialLink extends FooterLink {
  readonly network: SocialNetwork;
}

/** Social profiles; the handles are placeholders until the accounts are confirmed. */
export const SOCIAL_LINKS: readonly SocialLink[] = [
  { network: 'instagram', label: 'Tandem on Instagram', href: 'https://www.instagram.com/tandemhub' },
  { network: 'linkedin', label: 'Tandem on LinkedIn', href: 'https://www.linkedin.com/company/tandemhub' },
];
