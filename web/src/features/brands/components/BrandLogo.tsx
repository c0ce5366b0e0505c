import { initialsOf } from '../utils';

export interface BrandLogoProps {
  readonly name: string;
  readonly logoUrl: string | null | undefined;
  /** The name is masked ("A food & drink brand"): the placeholder shows no initials from it. */
  readonly masked?: boolean;
  readonly size?: 'sm' | 'md' | 'lg';
}

/** A brand's logo, or a placeholder with its initials. Decorative: the name is always next to it. */
export function BrandLogo({ name, logoUrl, masked = false, size = 'md' }: BrandLogoProps) {
  if (logoUrl) {
    return <img className={`brand-logo brand-logo--${size}`} src={logoUrl} alt="" loading="lazy" />;
  }
  return (
    <span
      className={`brand-logo brand-logo--${size} brand-logo--placeholder${masked ? ' brand-logo--masked' : ''}`}
      aria-hidden="true"
    >
      {masked ? '?' : initialsOf(name)}
    </span>
  );
}
