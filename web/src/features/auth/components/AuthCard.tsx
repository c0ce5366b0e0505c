import type { ReactNode } from 'react';

export type AuthIcon = 'mail' | 'check' | 'alert' | 'key';

const ICON_PATHS: Record<AuthIcon, string> = {
  mail: 'M4 6h16v12H4z M4 7l8 6 8-6',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  alert: 'M12 8v5 M12 16.5v.01 M10.3 3.9L2.4 18a2 2 0 001.7 3h15.8a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z',
  key: 'M15 7a4 4 0 11-3.9 4.9L4 19v2h3v-2h2v-2h2l1.1-1.1A4 4 0 0115 7z',
};

export interface AuthCardProps {
  readonly title: string;
  readonly lead?: ReactNode;
  readonly icon?: AuthIcon;
  readonly children?: ReactNode;
  /** A line under the card, e.g. "New to Tandem? Create an account". */
  readonly footer?: ReactNode;
}

/** The card every sign-in and account-link screen sits in. */
export function AuthCard({ title, lead, icon, children, footer }: AuthCardProps) {
  return (
    <div className="auth">
      <div className="card auth__card">
        {icon && (
          <span className={`auth__icon auth__icon--${icon}`} aria-hidden="true">
            <svg viewBox="0 0 24 24" width="24" height="24" focusable="false">
              <path
                d={ICON_PATHS[icon]}
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </span>
        )}
        <h1 className="card__title">{title}</h1>
        {lead && <p className="muted auth__lead">{lead}</p>}
        {children}
      </div>
      {footer && <p className="auth__switch">{footer}</p>}
    </div>
  );
}
