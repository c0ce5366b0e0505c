import { Breakable } from '@/components/ui/Breakable';
import type { ContactDetails } from '../api/requests';

function websiteHref(website: string): string {
  return /^https?:\/\//i.test(website) ? website : `https://${website}`;
}

function websiteText(website: string): string {
  return website.replace(/^https?:\/\//i, '').replace(/\/$/, '');
}

/** A connected brand's contact person, email, phone and website, as links. */
export function ContactDetailsList({
  contact,
  title = 'Contact details',
}: {
  readonly contact: ContactDetails;
  readonly title?: string;
}) {
  const { name, email, phone, website } = contact;
  const rows = [name, email, phone, website].filter((value) => typeof value === 'string' && value !== '');
  return (
    <section className="contact-details" aria-label={title}>
      <h3 className="contact-details__title">{title}</h3>
      {rows.length === 0 ? (
        <p className="muted">They have not added contact details yet.</p>
      ) : (
        <dl className="contact-details__list">
          {name && (
            <div>
              <dt>Contact</dt>
              <dd>{name}</dd>
            </div>
          )}
          {email && (
            <div>
              <dt>Email</dt>
              <dd>
                {/* The label keeps the name exactly the address (the break points add nothing). */}
                <a href={`mailto:${email}`} aria-label={email}>
                  <Breakable text={email} />
                </a>
              </dd>
            </div>
          )}
          {phone && (
            <div>
              <dt>Phone</dt>
              <dd>
                <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
              </dd>
            </div>
          )}
          {website && (
            <div>
              <dt>Website</dt>
              <dd>
                <a
                  href={websiteHref(website)}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${websiteText(website)} (opens in a new tab)`}
                >
                  <Breakable text={websiteText(website)} />
                </a>
              </dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
