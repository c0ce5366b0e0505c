import { useState } from 'react';
import { StepsModal, type Step } from './StepsModal';

export interface WelcomePopupProps {
  readonly firstName: string;
  /** Optional words from the Tandem team, shown on the first step. */
  readonly message?: string | null;
  /** Finishing records the welcome as seen; resolves when done. */
  readonly onFinish: () => Promise<void>;
  /** Closing without finishing hides it for now; it returns next visit. */
  readonly onClose: () => void;
}

const normalise = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

function steps(firstName: string, message: string | null | undefined): Step[] {
  const heading = `Welcome to Tandem, ${firstName}`;
  // The opener message is shown unless it only repeats the heading.
  const opener = message && normalise(message) !== normalise(heading) ? message : null;
  return [
    {
      heading,
      body: (
        <>
          {opener && <blockquote className="steps__quote">{opener}</blockquote>}
          <p>Tandem is where brands find partners for collaborations: co-branded products, joint campaigns, events and more.</p>
        </>
      ),
    },
    {
      heading: 'How credits work',
      body: (
        <ul className="steps__list">
          <li>Your subscription gives you 6 credits a month. Unused credits do not roll over.</li>
          <li>Sending a connection request holds 1 credit, returned if it is declined or cancelled that month.</li>
          <li>Pitching to a brand costs 1 credit. Featuring your brand in the Pitch Area costs 3.</li>
          <li>Accepting a request you receive is always free.</li>
        </ul>
      ),
    },
    {
      heading: 'Find your first partners',
      body: (
        <p>
          Start with Matches: brands picked for yours. Send requests to the ones you like, and we will email you when
          they reply. You can open Help from your account menu at any time.
        </p>
      ),
    },
  ];
}

/** The three-step welcome for new users (login check showWelcome). */
export function WelcomePopup({ firstName, message, onFinish, onClose }: WelcomePopupProps) {
  const [finishing, setFinishing] = useState(false);
  const finish = async () => {
    setFinishing(true);
    try {
      await onFinish();
    } finally {
      setFinishing(false);
    }
  };
  return (
    <StepsModal
      title="Welcome"
      unit="Step"
      steps={steps(firstName, message)}
      closeOnOverlayClick={false}
      finishing={finishing}
      onClose={onClose}
      onFinish={() => void finish()}
    />
  );
}
