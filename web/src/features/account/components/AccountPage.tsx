import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { confirm } from '@/components/ui/confirm';
import { hasHadLiveFeature, useDashboard } from '@/lib/session-state';
import { BILLING_PATH, BRAND_PROFILE_PATH, NOTIFICATIONS_PATH, PROFILE_PATH } from '@/features/navigation';
import { useIsFeatureOnly } from '@/lib/login-check';
import { profileQuery, useSignOutEverywhere } from '../api/profile';

function Section({ id, title, children, to, action }: {
  readonly id: string;
  readonly title: string;
  readonly children: React.ReactNode;
  readonly to: string;
  readonly action: string;
}) {
  return (
    <section className="card account-home__section" aria-labelledby={id}>
      <h2 id={id} className="card__subtitle">
        {title}
      </h2>
      <div className="account-home__body">{children}</div>
      <Link to={to} className="button button--secondary account-home__action">
        {action}
      </Link>
    </section>
  );
}

/** What the credits line says of the selected brand's account. */
function creditsLine(available: number | undefined, total: number | undefined): string {
  if (available === undefined) return 'Your plan, credits and invoices.';
  return total ? `${available} of ${total} credits available.` : `${available} credits available.`;
}

/**
 * /account: the account's home. Profile, brands, billing and notifications in a line each,
 * with the way to each page, and signing out on every device.
 */
export function AccountPage() {
  const profile = useQuery(profileQuery());
  const dashboard = useDashboard();
  const featureOnly = useIsFeatureOnly();
  const signOut = useSignOutEverywhere();
  // Once signed out, the page is on its way to sign-in: the button stays busy.
  const leaving = signOut.isPending || signOut.isSuccess;
  const brands = dashboard.data?.userBrands ?? [];
  const credits = dashboard.data?.credits ?? undefined;
  // Billing is offered where the user menu offers it (features/navigation/menu.ts).
  const showBilling = !featureOnly || hasHadLiveFeature(dashboard.data);

  const everywhere = async () => {
    try {
      await confirm({
        title: 'Sign out everywhere?',
        message: 'Every browser and device signed in to your account is signed out, this one too. You sign in again with your password.',
        confirmLabel: 'Sign out everywhere',
        danger: true,
      });
    } catch {
      return;
    }
    signOut.mutate();
  };

  return (
    <div className="account-home">
      <header className="page-header">
        <h1 className="page-title">Account</h1>
        <p className="page-header__lead">Your details, your brands and how Tandem reaches you.</p>
      </header>

      <div className="account-home__grid">
        <Section id="account-profile" title="Profile" to={PROFILE_PATH} action="Edit profile">
          {profile.data ? (
            <p>
              {profile.data.name}
              <br />
              <span className="muted">{profile.data.email}</span>
            </p>
          ) : (
            <p className="muted">Your name, email address and password.</p>
          )}
        </Section>

        {!featureOnly && (
          <Section id="account-brands" title="Brands" to={BRAND_PROFILE_PATH} action="Manage brands">
            {brands.length > 0 ? (
              <ul className="account-home__list">
                {brands.map((brand) => (
                  <li key={brand.id}>{brand.name}</li>
                ))}
              </ul>
            ) : (
              <p className="muted">Your brands' profiles, as other brands see them.</p>
            )}
          </Section>
        )}

        {showBilling && (
          <Section id="account-billing" title="Billing" to={BILLING_PATH} action="Open billing">
            <p>{creditsLine(credits?.available, credits?.total)}</p>
          </Section>
        )}

        <Section id="account-notifications" title="Notification settings" to={NOTIFICATIONS_PATH} action="Choose notifications">
          <p>What Tandem tells you about, and where: email, this browser, Slack.</p>
        </Section>

        <Section id="account-blocked" title="Blocked brands" to="/account/blocked" action="Manage blocked brands">
          <p>Brands you blocked: you and they don't see each other on Tandem.</p>
        </Section>
      </div>

      <section className="card account-home__section" aria-labelledby="account-everywhere">
        <h2 id="account-everywhere" className="card__subtitle">
          Sign out everywhere
        </h2>
        <p>Lost a phone, or signed in on a shared computer? End every sign-in to your account at once.</p>
        <Button variant="danger" busy={leaving} onClick={() => void everywhere()}>
          Sign out everywhere
        </Button>
      </section>
    </div>
  );
}
