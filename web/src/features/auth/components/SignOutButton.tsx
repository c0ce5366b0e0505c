import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/Button';
import { logout } from '../api/logout';

export function SignOutButton() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const signOut = async () => {
    setBusy(true);
    await logout();
    await navigate('/login/', { replace: true });
  };

  return (
    <Button variant="ghost" busy={busy} onClick={() => void signOut()}>
      Sign out
    </Button>
  );
}
