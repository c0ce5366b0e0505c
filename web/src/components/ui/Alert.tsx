import type { ReactNode } from 'react';

export interface AlertProps {
  readonly tone?: 'error' | 'info' | 'success';
  readonly title?: string;
  readonly children: ReactNode;
}

/** A message region. Errors use role="alert" so screen readers announce them at once. */
export function Alert({ tone = 'error', title, children }: AlertProps) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title && <p className="alert__title">{title}</p>}
      <div className="alert__body">{children}</div>
    </div>
  );
}
