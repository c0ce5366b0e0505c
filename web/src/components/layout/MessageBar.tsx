import { Button } from '@/components/ui/Button';

export interface BarMessage {
  readonly id: string;
  readonly text: string;
  readonly action?: {
    readonly label: string;
    readonly onClick: () => void;
    readonly busy?: boolean;
  };
  readonly onDismiss?: () => void;
}

/** The top message bar: the server's global message and account notices. */
export function MessageBar({ messages }: { readonly messages: readonly BarMessage[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="message-bar" role="region" aria-label="Messages">
      {messages.map((message) => (
        <div
          key={message.id}
          className={`message-bar__item${message.onDismiss ? ' message-bar__item--dismissible' : ''}`}
          role="status"
        >
          <p className="message-bar__text">{message.text}</p>
          {message.action && (
            <Button
              variant="secondary"
              className="message-bar__action"
              busy={message.action.busy}
              onClick={message.action.onClick}
            >
              {message.action.label}
            </Button>
          )}
          {message.onDismiss && (
            <button
              type="button"
              className="icon-button message-bar__dismiss"
              aria-label="Dismiss message"
              onClick={message.onDismiss}
            >
              <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
                <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
