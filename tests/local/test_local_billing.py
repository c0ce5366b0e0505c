"""`make dev` pays end to end: the stack starts the fake Stripe, free@tandem.local buys the
monthly plan through the hosted checkout (form posts, as a browser sends them), the fake's
signed webhooks reach the stack, and the dashboard shows 6/6 credits."""

from __future__ import annotations

import time
from pathlib import Path

import requests

from infra.local.fake_stripe.browser import pay_hosted_checkout
from tests.local.stack import StackProcesses

TIMEOUT = 30
POLL = 0.2


def test_a_member_subscribes_monthly_on_the_local_stack_and_sees_six_credits(
    stacks: StackProcesses, data_dir: Path, web_root: Path
) -> None:
    stack = stacks.start(data_dir, web_root)
    token = stack.sign_in("free@tandem.local")
    headers = {"Authorization": f"Bearer {token}"}
    before = requests.get(f"{stack.url}/api/dashboard", headers=headers, timeout=TIMEOUT).json()["credits"]
    assert before["available"] == 0 and before["productsAllowed"] is True

    products = requests.get(f"{stack.url}/api/products", headers=headers, timeout=TIMEOUT)
    assert products.status_code == 200, products.text
    _trial, monthly = products.json()["products"][0]["prices"]["monthly"]  # the trial is offered first
    assert monthly["link"] is None  # no Stripe customer yet: Buy now asks POST checkout
    made = requests.post(
        f"{stack.url}/api/checkout", json={"priceId": monthly["id"]}, headers=headers, timeout=TIMEOUT
    )
    assert made.status_code == 200, made.text
    link = made.json()["url"]
    assert "127.0.0.1" in link
    paid = pay_hosted_checkout(link, email="free@tandem.local", name="Free Member")  # the page answers 200
    assert paid.status_code == 303, paid.text
    back = paid.headers["Location"]
    assert back.startswith(f"{stack.url}/account/subscriptions/payment-processing/cs_")

    deadline = time.monotonic() + 180  # a bound for the webhooks alone (the page's check is not asked)
    while True:
        credits = requests.get(f"{stack.url}/api/dashboard", headers=headers, timeout=TIMEOUT).json()[
            "credits"
        ]
        # The sync grants the credits, then writes the plan (payment-status's "processed" reads
        # the plan, so the payment page waits for both): wait for the plan too.
        if (credits["available"] == 6 and credits["active"]) or time.monotonic() > deadline:
            break
        time.sleep(POLL)
    assert (credits["available"], credits["total"], credits["active"]) == (6, 6, True), stack.output[-3000:]

    session = back.rsplit("/", 1)[-1]
    status = requests.get(
        f"{stack.url}/api/stripe/payment-status/{session}", headers=headers, timeout=TIMEOUT
    )
    assert status.json() == {"status": "paid", "kind": "subscription", "processed": True}
    code, _ = stack.stop()
    assert code == 0

    again = stacks.start(data_dir, web_root)  # the fake's state and the account survive a restart
    token = again.sign_in("free@tandem.local")
    credits = requests.get(
        f"{again.url}/api/dashboard", headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT
    ).json()["credits"]
    assert (credits["available"], credits["active"]) == (6, True)


def test_demo_members_plan_is_stripes_and_a_purchase_keeps_it(
    stacks: StackProcesses, data_dir: Path, web_root: Path
) -> None:
    """Issue 21: demo@'s plan is bought in the fake Stripe at first start, so the portal opens;
    buying 3 add-on credits adds them and leaves the plan as it was."""
    stack = stacks.start(data_dir, web_root)
    token = stack.sign_in("demo@tandem.local")
    headers = {"Authorization": f"Bearer {token}"}
    credits = requests.get(f"{stack.url}/api/dashboard", headers=headers, timeout=TIMEOUT).json()["credits"]
    assert (credits["plan"]["source"], credits["plan"]["kind"], credits["available"]) == (
        "stripe",
        "monthly",
        6,
    )
    assert credits["hasBillingAccount"] is True and credits["plan"]["renewsOn"] is not None
    portal = requests.get(f"{stack.url}/api/users/stripe-portal-url", headers=headers, timeout=TIMEOUT)
    assert portal.status_code == 200 and portal.json()["url"].startswith("http://127.0.0.1"), portal.text

    products = requests.get(f"{stack.url}/api/products", headers=headers, timeout=TIMEOUT).json()["products"]
    (extra,) = [
        o for p in products for opts in p["prices"].values() for o in opts if o["label"] == "3 credits"
    ]
    paid = pay_hosted_checkout(extra["link"], email="demo@tandem.local", name="Dana")
    assert paid.status_code == 303, paid.text
    deadline = time.monotonic() + 180
    while True:
        credits = requests.get(f"{stack.url}/api/dashboard", headers=headers, timeout=TIMEOUT).json()[
            "credits"
        ]
        if credits["available"] == 9 or time.monotonic() > deadline:
            break
        time.sleep(POLL)
    assert credits["available"] == 9, stack.output[-3000:]
    assert (credits["plan"]["kind"], credits["canSend"], credits["namesShown"]) == ("monthly", True, True)
    assert stack.stop()[0] == 0
