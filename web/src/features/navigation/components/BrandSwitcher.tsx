import { useId } from 'react';

export interface BrandOption {
  readonly id: number | string;
  readonly name: string;
}

export interface BrandSwitcherProps {
  readonly brands: readonly BrandOption[];
  /** The stored selection: a numeric id or 'default' (the first brand). */
  readonly selected: string;
  readonly onSelect: (brandId: string) => void;
}

/** Which brand the user acts for; shown only when they have more than one. */
export function BrandSwitcher({ brands, selected, onSelect }: BrandSwitcherProps) {
  const id = useId();
  if (brands.length < 2) return null;
  const ids = brands.map((brand) => String(brand.id));
  const value = ids.includes(selected) ? selected : (ids[0] ?? '');
  return (
    <div className="brand-switcher">
      <label htmlFor={id} className="brand-switcher__label">
        Brand
      </label>
      <select
        id={id}
        className="brand-switcher__select"
        value={value}
        onChange={(event) => {
          onSelect(event.target.value);
        }}
      >
        {brands.map((brand) => (
          <option key={brand.id} value={String(brand.id)}>
            {brand.name}
          </option>
        ))}
      </select>
    </div>
  );
}
