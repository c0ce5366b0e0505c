import { useId } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '@/features/brands';
import { dayOf, STATUS_LABEL, type Feature } from '../api/pitch';
import { featurePath } from '../paths';

/** One live feature in the Pitch Area: who, what they offer and look for, and the way in. */
export function FeatureCard({ feature }: { readonly feature: Feature }) {
  const titleId = useId();
  const masked = !feature.nameVisible;
  const closes = dayOf(feature.closingDate);
  return (
    <article className={`feature-card${feature.own ? ' feature-card--own' : ''}`} aria-labelledby={titleId}>
      <div className="feature-card__head">
        <BrandLogo name={feature.brand.name} logoUrl={feature.brand.logoUrl} masked={masked} />
        <div className="feature-card__who">
          <p className={masked ? 'feature-card__brand brand-name--masked' : 'feature-card__brand'}>{feature.brand.name}</p>
          {feature.brand.category && <p className="feature-card__category">{feature.brand.category}</p>}
        </div>
        {feature.own && <span className="badge badge--current">Your feature</span>}
        {feature.own && feature.status !== 'live' && <span className="badge badge--saved">{STATUS_LABEL[feature.status]}</span>}
      </div>
      <h3 id={titleId} className="feature-card__title">
        <Link to={featurePath(feature.id)}>{feature.title}</Link>
      </h3>
      <dl className="feature-facts">
        <div>
          <dt>They offer</dt>
          <dd className="clamp">{feature.offer}</dd>
        </div>
        <div>
          <dt>They're looking for</dt>
          <dd className="clamp">{feature.lookingFor}</dd>
        </div>
        {feature.audience && (
          <div>
            <dt>Audience</dt>
            <dd>{feature.audience}</dd>
          </div>
        )}
      </dl>
      <ul className="chips" aria-label="Kinds of collaboration">
        {feature.collabKinds.map((kind) => (
          <li key={kind} className="chip">
            {kind}
          </li>
        ))}
      </ul>
      <div className="feature-card__foot">
        <span className="muted small">{closes ? `Closes ${closes}` : 'No closing date'}</span>
        <Link to={featurePath(feature.id)} className={feature.own ? 'button button--secondary' : 'button button--primary'}>
          {feature.own ? 'View your feature' : 'View and pitch'}
          <span className="visually-hidden">: {feature.title}</span>
        </Link>
      </div>
    </article>
  );
}
