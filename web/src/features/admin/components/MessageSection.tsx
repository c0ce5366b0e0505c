import { useId, useState, type SubmitEvent } from 'react';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError } from '@/lib/api';
import { useSaveGlobalMessage } from '../api/actions';
import { useSiteSettings, type SiteSettings } from '../api/console';

export const MESSAGE_MAX = 300;

function MessageForm({ current }: { readonly current: SiteSettings }) {
  const [text, setText] = useState(current.globalMessage);
  const [saved, setSaved] = useState<string | null>(null);
  const id = useId();
  const save = useSaveGlobalMessage();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(null);
    save.mutate(text, {
      onSuccess: (next) => {
        setText(next.globalMessage);
        setSaved(next.globalMessage ? 'Saved. Members see it in the top bar.' : 'The global message is removed.');
      },
    });
  };
  return (
    <form className="form card admin__form" onSubmit={submit} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Message shown in the top bar
        </label>
        <textarea
          id={id}
          className="field__input field__input--textarea"
          rows={3}
          maxLength={MESSAGE_MAX}
          value={text}
          aria-describedby={`${id}-hint`}
          onChange={(event) => { setText(event.target.value); setSaved(null); }}
        />
        <p className="field__hint" id={`${id}-hint`}>
          {text.length}/{MESSAGE_MAX} characters. Leave it empty for no message.
        </p>
      </div>
      {save.isError && <Alert>{describeError(save.error)}</Alert>}
      {saved && <Alert tone="success">{saved}</Alert>}
      <div className="admin__row-actions">
        <Button type="submit" busy={save.isPending && save.variables !== ''}>
          Save message
        </Button>
        {current.globalMessage && (
          <Button variant="secondary" busy={save.isPending && save.variables === ''} onClick={() => { setSaved(null); save.mutate(''); }}>
            Remove message
          </Button>
        )}
      </div>
    </form>
  );
}

/** The global message (login response's globalMessage, shown in the top message bar). */
export function MessageSection() {
  const settings = useSiteSettings();
  return (
    <section className="admin__section">
      <p className="admin__lead">Every member sees this message in the top bar after signing in, until they dismiss it.</p>
      {settings.isPending && <PageLoader inline />}
      {settings.isError && <Alert>{describeError(settings.error)}</Alert>}
      {settings.data && <MessageForm key={settings.data.globalMessage} current={settings.data} />}
    </section>
  );
}
