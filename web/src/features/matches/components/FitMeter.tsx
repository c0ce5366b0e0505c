import type { Fit } from '@/features/brands';
import { percent } from '../utils';

const TONE: Readonly<Record<string, string | undefined>> = {
  'Great fit': 'great',
  'Good fit': 'good',
  'Worth a look': 'fair',
};

/** "Great fit · 86%" with a bar: how well the two brands fit each other, both ways. */
export function FitMeter({ score, fit }: { readonly score: number; readonly fit: Fit }) {
  const value = percent(score);
  return (
    <div className={`fit fit--${TONE[fit] ?? 'fair'}`} title="How well you fit each other, both ways">
      <span className="fit__label">
        {fit} · {value}%
      </span>
      <span className="fit__bar" aria-hidden="true">
        <span className="fit__fill" style={{ width: `${value}%` }} />
      </span>
    </div>
  );
}
