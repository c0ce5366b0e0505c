import { useId, useState, type SubmitEvent } from 'react';
import { setImpersonatedUser, useImpersonatedUser } from '@/lib/session';
import { useAdminUsers } from '../api/admin-users';

/**
 * Developer mode, admins only: act as another user. The value is sent as
 * X-Impersonate-User on every request; the page reloads so all data follows.
 */
export function ImpersonateField({ onChange }: { readonly onChange: () => void }) {
  const current = useImpersonatedUser();
  const [value, setValue] = useState(current ?? '');
  const { data } = useAdminUsers(true);
  const inputId = useId();
  const listId = useId();

  const apply = (next: string | null) => {
    setImpersonatedUser(next);
    setValue(next ?? '');
    onChange();
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(value);
  };

  return (
    <form className="impersonate" onSubmit={submit}>
      <label htmlFor={inputId} className="impersonate__label">
        Impersonate user
      </label>
      <input
        id={inputId}
        className="field__input impersonate__input"
        list={listId}
        value={value}
        placeholder="Email or user id"
        autoComplete="off"
        onChange={(event) => {
          setValue(event.target.value);
        }}
      />
      <datalist id={listId}>
        {data?.users.map((user) => (
          <option key={user.id} value={user.email}>
            {user.name}
          </option>
        ))}
      </datalist>
      <button type="submit" className="link-button">
        Apply
      </button>
      {current && (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            apply(null);
          }}
        >
          Stop
        </button>
      )}
    </form>
  );
}
