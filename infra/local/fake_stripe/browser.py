"""What a person's browser does on the fake's hosted checkout page, for the tests, the benches
and the local stack's demo data: open the page, type an email, a name and a card, press Pay;
on a 3-D Secure challenge (a checkout's or a hosted invoice's), press Complete or Fail.

    answer = pay_hosted_checkout(session["url"])            # 303 to the success URL when paid
    pay_hosted_checkout(url, "4000 0000 0000 0002").text     # 402: "Your card was declined."
    challenge = pay_hosted_checkout(url, "4000 0027 6000 3184")
    answer_challenge(url, challenge_token(challenge))       # 303 when authenticated
"""

from __future__ import annotations

import re

import requests

GOOD_CARD = "4242 4242 4242 4242"
TIMEOUT = 60  # a bound for a stuck server, not a speed target
_TOKEN = re.compile(r'name="token" value="([^"]+)"')


def pay_hosted_checkout(
    url: str,
    card: str = GOOD_CARD,
    *,
    email: str = "member@tandem.local",
    name: str = "Mia Member",
    timeout: float = TIMEOUT,
) -> requests.Response:
    """Open the checkout page at `url` (it must answer 200), then submit its form with `card`,
    not following the redirect: the page's own answer (303 to the success URL when paid, 402
    with the reason when declined, 200 with a 3-D Secure challenge)."""
    page = requests.get(url, timeout=timeout)
    if page.status_code != 200:
        raise RuntimeError(f"The checkout page answered {page.status_code}: {page.text[:500]}")
    form = {"email": email, "name": name, "card_number": card, "pay": "1"}
    return requests.post(url, data=form, allow_redirects=False, timeout=timeout)


def challenge_token(page: requests.Response) -> str:
    """The token of the 3-D Secure challenge a page shows (AssertionError when it shows none)."""
    found = _TOKEN.search(page.text)
    assert found, f"no 3-D Secure challenge on the page ({page.status_code})"
    return found.group(1)


def answer_challenge(page_url: str, token: str, outcome: str = "complete") -> requests.Response:
    """Press Complete (or, `outcome="fail"`, Fail) on the 3-D Secure challenge of the checkout or
    hosted invoice page at `page_url`; the page's answer, redirects not followed."""
    data = {"token": token, "outcome": outcome}
    return requests.post(f"{page_url}/authenticate", data=data, allow_redirects=False, timeout=TIMEOUT)
