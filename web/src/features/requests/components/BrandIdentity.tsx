import type { BrandSummary } from '../api/requests';

function initialsOf(name: string): string {
  const words = name.replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter(Boolean);
  return (words.slice(0, 2).map((word) => word[0]?.toUpperCase() ?? '').join('') || '?').slice(0, 2);
}

/** A brand's logo, or its initials on a tinted square when it has none. Decorative: the name is beside it. */
export function BrandLogo({ brand, size = 48 }: { readonly brand: BrandSummary; readonly size?: number }) {
  if (brand.logoUrl) {
    return <img className="brand-logo" src={brand.logoUrl} alt="" width={size} height={size} loading="lazy" />;
  }
  return (
    <span className="brand-logo brand-logo--initials" style={{ width: size, height: size }} aria-hidden="true">
      {initialsOf(brand.name)}
    </span>
  );
}

export interface BrandIdentityProps {
  readonly brand: BrandSummary;
  /** Heading level of the name inside a list of cards. */
  readonly as?: 'h2' | 'h3';
  readonly titleId?: string;
}

/** Logo, name and category of the other brand: the head of every request and connection card. */
export function BrandIdentity({ brand, as: Heading = 'h2', titleId }: BrandIdentityProps) {
  return (
    <div className="brand-identity">
      <BrandLogo brand={brand} />
      <div className="brand-identity__text">
        <Heading id={titleId} className="brand-identity__name">
          {brand.name}
        </Heading>
        {brand.category && <p className="brand-identity__category">{brand.category}</p>}
      </div>
    </div>
  );
}
