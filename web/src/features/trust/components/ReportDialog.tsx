import { useId, useState, type SubmitEvent } from 'react';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import { describeError } from '@/lib/api';
import { REPORT_REASONS, REPORT_TEXT_MAX, useReportBrand, type ReportReason } from '../api/trust';

/**
 * "Report this brand": a reason and up to 1,000 characters for the team. Once sent, the dialog
 * thanks the member in the server's words ("Thanks, our team will look at this").
 */
export function ReportDialog({ brandId, brandName, onClose }: {
  readonly brandId: number;
  readonly brandName: string;
  readonly onClose: () => void;
}) {
  const report = useReportBrand();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const textId = useId();
  const countId = useId();
  const tooLong = text.length > REPORT_TEXT_MAX;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!reason) {
      setMissing(true);
      return;
    }
    if (tooLong) return;
    report.mutate({ brandId, reason, text });
  };

  if (report.isSuccess) {
    return (
      <Modal open title="Report sent" onClose={onClose} width={500} footer={<Button onClick={onClose}>Close</Button>}>
        <p role="status">{report.data.message}</p>
      </Modal>
    );
  }

  return (
    <Modal
      open
      title="Report this brand"
      description={`Tell our team what is wrong with ${brandName}. They will not know who reported them.`}
      onClose={onClose}
      width={500}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={`${textId}-form`} busy={report.isPending} disabled={tooLong}>
            Send report
          </Button>
        </>
      }
    >
      <form id={`${textId}-form`} className="report-form" onSubmit={submit} noValidate>
        <fieldset className="field report-form__reasons" aria-invalid={missing && !reason ? true : undefined}>
          <legend className="field__label">Reason</legend>
          {REPORT_REASONS.map((option) => (
            <label key={option.value} className="report-form__reason">
              <input
                type="radio"
                name="reason"
                value={option.value}
                checked={reason === option.value}
                onChange={() => {
                  setReason(option.value);
                  setMissing(false);
                }}
              />
              {option.label}
            </label>
          ))}
          {missing && !reason && <p className="field__error">Please choose a reason</p>}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor={textId}>
            What happened? <span className="field__optional">(optional)</span>
          </label>
          <textarea
            id={textId}
            rows={5}
            value={text}
            onChange={(event) => { setText(event.target.value); }}
            className="field__input field__input--textarea"
            aria-invalid={tooLong ? true : undefined}
            aria-describedby={countId}
          />
          <p id={countId} className={tooLong ? 'field__error' : 'field__hint'}>
            {tooLong ? 'Please keep your report under 1,000 characters' : `${text.length} / ${REPORT_TEXT_MAX.toLocaleString('en-GB')}`}
          </p>
        </div>
        {report.isError && (
          <p className="field__error" role="alert">
            {describeError(report.error)}
          </p>
        )}
      </form>
    </Modal>
  );
}
