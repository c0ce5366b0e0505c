import type { Fit } from '@/features/brands';

const TONE: Readonly<Record<string, string | undefined>> = {
  'Great fit': 'great',
  'Good fit': 'good',
  'Worth a look': 'fair',
};

const STEPS: Readonly<Record<string, number | undefined>> = { 'Great fit': 3, 'Good fit': 2, 'Worth a look': 1 };

/**
 * "Great fit" with what our own requests back for the label ("Of requests sent to Great fit
 * brands, about 4 in 10 were accepted"), a promise a member can check; none until the data
 * backs one (a fresh deployment promises nothing). The score is not a probability, so no percent
 * is shown. Three steps show the label at a glance.
 */
export function FitMeter({ fit, promise }: { readonly fit: Fit; readonly promise: string | null }) {
  const steps = STEPS[fit] ?? 1;
  return (
    <div className={`fit fit--${TONE[fit] ?? 'fair'}`}>
      <div className="fit__head">
        <span className="fit__label">{fit}</span>
        <span className="fit__steps" aria-hidden="true">
          {[1, 2, 3].map((step) => (
            <span key={step} className={step <= steps ? 'fit__step fit__step--on' : 'fit__step'} />
          ))}
        </span>
      </div>
      {promise ? <p className="fit__promise">{promise}</p> : null}
    </div>
  );
}
