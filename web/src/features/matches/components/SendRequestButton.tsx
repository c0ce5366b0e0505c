import { Button } from '@/components/ui/Button';
import { useSelectedBrandSuspended } from '@/lib/session-state';
import { openRequestFor, type RequestTarget } from '../utils';

export interface SendRequestButtonProps {
  readonly brand: RequestTarget;
  /** Called once the request is sent (e.g. to take the match off the list). */
  readonly onSent?: (requestId: string) => void;
  readonly className?: string;
}

/**
 * The "Send request" entry point of a match: opens the requests area's popup
 * (credits, message, sending). Links elsewhere can use sendRequestPath(id). Not offered
 * while the member's brand is suspended (the server would refuse the send).
 */
export function SendRequestButton({ brand, onSent, className }: SendRequestButtonProps) {
  const suspended = useSelectedBrandSuspended();
  if (suspended) return null;
  return (
    <Button
      className={className}
      onClick={() => {
        openRequestFor(brand, onSent);
      }}
    >
      Send request<span className="visually-hidden"> to {brand.name}</span>
    </Button>
  );
}
