import type { ReactNode } from 'react';
import { FOOTER_LINKS, SOCIAL_LINKS, type SocialNetwork } from '@/config/links';

const SOCIAL_ICONS: Record<SocialNetwork, ReactNode> = {
  instagram: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="17.5" cy="6.5" r="1.2" fill="currentColor" />
    </>
  ),
  linkedin: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M8 10v7M8 7v.01M12 17v-4a2 2 0 014 0v4M12 10v7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
    </>
  ),
};

export interface FooterProps {
  /** The app version, shown to admins only. */
  readonly version?: string;
  /** Extra tools (admin and developer helpers). */
  readonly children?: ReactNode;
}

/** Site footer: terms, privacy, FAQs and social profiles. Not shown on public routes. */
export function Footer({ version, children }: FooterProps) {
  return (
    <footer className="footer">
      <nav aria-label="Footer" className="footer__nav">
        <ul className="footer__links">
          {FOOTER_LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href} target="_blank" rel="noreferrer">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
        <ul className="footer__social">
          {SOCIAL_LINKS.map((link) => (
            <li key={link.network}>
              <a href={link.href} target="_blank" rel="noreferrer" aria-label={link.label} className="icon-button">
                <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
                  {SOCIAL_ICONS[link.network]}
                </svg>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="footer__meta">
        <span>© {new Date().getFullYear()} Tandem</span>
        {version && <span className="footer__version">Version {version}</span>}
        {children}
      </div>
    </footer>
  );
}
