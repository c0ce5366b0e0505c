import { StepsModal, type Step } from './StepsModal';

const PAGES: readonly Step[] = [
  {
    heading: 'Overview',
    body: (
      <>
        <p>Tandem matches your brand with brands that suit a collaboration.</p>
        <ul className="steps__list">
          <li>
            <strong>Matches</strong>: brands suggested for you. Send a connection request to the ones you like.
          </li>
          <li>
            <strong>Requests</strong>: requests you have received and sent. Accepting a request is free.
          </li>
          <li>
            <strong>Connections</strong>: brands you are connected with, with their contact details.
          </li>
          <li>
            <strong>Pitch Area</strong>: feature your own collaboration opportunity, or pitch to others.
          </li>
          <li>
            <strong>Collab Ideas</strong>: guides, tips, templates and a calendar to plan with.
          </li>
        </ul>
      </>
    ),
  },
  {
    heading: 'How to',
    body: (
      <ol className="steps__list steps__list--numbered">
        <li>Complete your brand profile so the right brands find you.</li>
        <li>
          Open Matches and send a request. It holds 1 credit, which comes back if the request is declined or
          cancelled within the same subscription month.
        </li>
        <li>Answer the requests you receive. Once connected, you both get each other's details by email.</li>
        <li>Pitching to a brand costs 1 credit; featuring your brand in the Pitch Area costs 3.</li>
        <li>Your subscription gives you 6 credits a month. Unused credits do not roll over.</li>
      </ol>
    ),
  },
];

export interface HelpPopupProps {
  readonly onClose: () => void;
}

/** The two-page help popup: overview, then how-to. */
export function HelpPopup({ onClose }: HelpPopupProps) {
  return <StepsModal title="Help" unit="Page" steps={PAGES} onClose={onClose} onFinish={onClose} />;
}
