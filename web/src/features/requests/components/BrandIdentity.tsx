import { BrandLogo } from '@/features/brands';
import type { BrandSummary } from '../api/requests';

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
      <BrandLogo name={brand.name} logoUrl={brand.logoUrl} />
      <div className="brand-identity__text">
        <Heading id={titleId} className="brand-identity__name">
          {brand.name}
        </Heading>
        {brand.category && <p className="brand-identity__category">{brand.category}</p>}
      </div>
    </div>
  );
}
