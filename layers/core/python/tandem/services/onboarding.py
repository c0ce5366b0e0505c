"""What a member has finished or turned off on the way in: the welcome, the brand visibility
popup, the tips tour (SPEC's `users/action/*`), and the welcome emails (the email's own link).
Each is one UpdateItem on the user; repeating one changes nothing."""

from __future__ import annotations

from typing import Any

from tandem.errors import ValidationError
from tandem.store.models import User

# SPEC's action -> the user's flag it sets
STEPS = {
    "welcome": User.welcome_done,
    "brand-visibility-popup": User.brand_visibility_popup_done,
    "instructions": User.instructions_done,
}


def finish(user: User, step: str) -> dict[str, Any]:
    user.update(actions=[STEPS[step].set(True)])
    return {"ok": True}


def stop_welcome_emails(user: User, email: str) -> dict[str, Any]:
    """The welcome emails' own link: only for the address they were sent to."""
    if user.email != email.strip().lower():
        # 400, not 403: the app signs a member out on 403, and this is only a wrong link
        raise ValidationError("You can only change your own email settings")
    user.update(actions=[User.welcome_emails.set(False)])
    return {"message": "You won't get any more welcome emails."}
