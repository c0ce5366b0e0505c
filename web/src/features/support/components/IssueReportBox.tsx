import { useState, type SubmitEvent } from 'react';
import { useLocation } from 'react-router';
import { TextAreaField } from '@/components/form/TextAreaField';
import { useField } from '@/components/form/use-field';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import { showToast } from '@/lib/toast';
import { useReportIssue } from '../api/report-issue';

export const DESCRIPTION_REQUIRED = 'Please enter a description';
export const ISSUE_SENT = 'Issue sent';

function IssueForm({ onSent }: { readonly onSent: () => void }) {
  const location = useLocation();
  const description = useField();
  const report = useReportIssue();
  // Once sent, the box is closing: the button stays busy.
  const sending = report.isPending || report.isSuccess;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    if (description.value.trim() === '') {
      description.setError(DESCRIPTION_REQUIRED);
      document.getElementById(description.id)?.focus();
      return;
    }
    report.mutate(
      { description: description.value.trim(), path: location.pathname + location.search },
      {
        onSuccess: () => {
          showToast({ tone: 'success', title: ISSUE_SENT, message: 'Thanks, the team will look into it.' });
          onSent();
        },
      },
    );
  };

  return (
    <form className="form" id="issue-report-form" noValidate onSubmit={submit}>
      <TextAreaField field={description} name="description" label="What went wrong?" rows={5} autoFocus />
      <p className="field__hint">The page you are on is sent along with your description.</p>
      <div className="actions actions--end">
        <Button type="submit" busy={sending}>
          Send report
        </Button>
      </div>
    </form>
  );
}

/** The developer issue-report box (admins, or anyone in development). */
export function IssueReportBox() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="link-button footer__tool"
        onClick={() => {
          setOpen(true);
        }}
      >
        Report an issue
      </button>
      <Modal
        open={open}
        title="Report an issue"
        onClose={() => {
          setOpen(false);
        }}
      >
        <IssueForm
          onSent={() => {
            setOpen(false);
          }}
        />
      </Modal>
    </>
  );
}
