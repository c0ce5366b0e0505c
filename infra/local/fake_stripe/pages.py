"""The pages a person (or Playwright) clicks through: hosted Checkout, 3-D Secure, the billing
portal, payment links and the hosted invoice page. Plain HTML forms, no JavaScript."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.utils import redirect
from werkzeug.wrappers import Request, Response

from infra.local.fake_stripe.api import CLIENT_REFERENCE, EMAIL
from infra.local.fake_stripe.cards import TEST_CARDS, parse_card
from infra.local.fake_stripe.engine import Engine
from infra.local.fake_stripe.store import Store
from infra.local.fake_stripe.util import StripeError, format_date, format_money

INVALID_CARD = "Your card number is invalid."


class Pages:
    def __init__(
        self, engine: Engine, store: Store, account_name: str, after_change: Callable[[], None]
    ) -> None:
        self.engine = engine
        self.store = store
        self.account_name = account_name
        self.after_change = after_change
        self.templates = Environment(
            loader=FileSystemLoader(Path(__file__).parent / "templates"),
            autoescape=select_autoescape(["html"]),
        )
        self.routes = Map(
            [
                Rule("/", methods=["GET"], endpoint="index"),
                Rule("/c/pay/<session_id>", methods=["GET", "POST"], endpoint="checkout"),
                Rule("/c/pay/<session_id>/authenticate", methods=["POST"], endpoint="checkout_authenticate"),
                Rule("/c/done/<session_id>", methods=["GET"], endpoint="checkout_done"),
                Rule("/b/<token>", methods=["GET"], endpoint="payment_link"),
                Rule("/p/session/<token>", methods=["GET", "POST"], endpoint="portal"),
                Rule("/i/<invoice_id>", methods=["GET", "POST"], endpoint="invoice"),
                Rule("/i/<invoice_id>/authenticate", methods=["POST"], endpoint="invoice_authenticate"),
            ],
            strict_slashes=False,
        )

    def handle(self, request: Request) -> Response:
        adapter = self.routes.bind_to_environ(request.environ)
        try:
            endpoint, args = adapter.match(method=request.method)
        except NotFound:
            return self._message("Not found", "There is no page here.", status=404)
        except MethodNotAllowed:
            return self._message("Not allowed", "This page does not accept that request.", status=405)
        with self.store.lock, self.engine.request(None, None):
            seq = self.store.seq
            try:
                response = getattr(self, endpoint)(request, **args)
            except StripeError as error:
                response = self._message(
                    "Something went wrong", error.message, status=error.status, alert=True
                )
            changed = request.method == "POST" or self.store.seq != seq  # a GET may expire a session
            if changed:
                self.store.save()
        if changed:
            self.after_change()
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Frame-Options"] = "DENY"
        return response

    # --- rendering helpers -------------------------------------------------------------------

    def _page(self, template: str, status: int = 200, **context: Any) -> Response:
        html = self.templates.get_template(template).render(account_name=self.account_name, **context)
        return Response(html, status=status, mimetype="text/html")

    def _message(
        self,
        heading: str,
        message: str,
        *,
        status: int = 200,
        alert: bool = False,
        link: str | None = None,
        link_text: str = "Continue",
    ) -> Response:
        return self._page(
            "message.html",
            status,
            heading=heading,
            message=message,
            alert=alert,
            link=link,
            link_text=link_text,
        )

    @staticmethod
    def _card_from(form: Any) -> tuple[Any, str]:
        typed = form.get("test_card") or form.get("card_number", "")
        return parse_card(typed), typed

    def index(self, request: Request) -> Response:
        events = self.store.all("event")[:50]
        rows = []
        for event in events:
            states = [d["status"] for d in self.store.deliveries.values() if d["event"] == event["id"]]
            rows.append(
                {"id": event["id"], "type": event["type"], "deliveries": ", ".join(states) or "no endpoint"}
            )
        return self._page(
            "index.html",
            now=format_date(self.engine.now()),
            paused=self.store.delivery_paused,
            pending=len(self.store.queue),
            endpoints=self.store.all("webhook_endpoint"),
            events=rows,
        )

    # --- checkout --------------------------------------------------------------------------

    def _checkout_context(self, session: dict[str, Any]) -> dict[str, Any]:
        items = []
        for line in self.engine.session_line_items(session)["data"]:
            recurring = line["price"]["recurring"]
            every = None
            if recurring:
                count = recurring["interval_count"]
                every = (
                    f"every {recurring['interval']}"
                    if count == 1
                    else f"every {count} {recurring['interval']}s"
                )
            items.append(
                {
                    "description": line["description"],
                    "quantity": line["quantity"],
                    "amount": format_money(line["amount_total"], line["currency"]),
                    "every": every,
                }
            )
        customer = self.store.get("customer", session["customer"]) if session["customer"] else None
        trial_days = session["_subscription_data"].get("trial_period_days")
        return {
            "session": session,
            "items": items,
            "total": format_money(session["amount_total"], session["currency"]),
            "trial_days": trial_days,
            "email": (customer or {}).get("email") or session["customer_email"] or "",
            "email_locked": bool(customer and customer.get("email")),
            "name": (customer or {}).get("name") or "",
            "card_number": "",
            "submit_label": "Subscribe" if session["mode"] == "subscription" else "Pay",
            "test_cards": TEST_CARDS,
            "action": f"/c/pay/{session['id']}",
            "error": None,
        }

    def _closed_session(self, session: dict[str, Any]) -> Response | None:
        if session["status"] == "open" and session["expires_at"] <= self.engine.now():
            self.engine.expire_session(session)
        if session["status"] == "complete":
            return self._message(
                "Payment complete",
                "This checkout is already complete.",
                link=_success_url(session, self.engine.base_url()),
                link_text="Continue",
            )
        if session["status"] == "expired":
            return self._message(
                "Checkout expired",
                "This checkout session has expired. Start again from the app.",
                status=410,
                alert=True,
                link=session["cancel_url"],
                link_text="Back",
            )
        return None

    def checkout(self, request: Request, session_id: str) -> Response:
        session = self.store.get("checkout.session", session_id)
        if session is None:
            return self._message("Not found", "This checkout session does not exist.", status=404, alert=True)
        closed = self._closed_session(session)
        if closed is not None:
            return closed
        context = self._checkout_context(session)
        if request.method == "GET":
            return self._page("checkout.html", **context)
        form = request.form
        email = form.get("email", "").strip() or context["email"]
        name = form.get("name", "").strip()[:200]
        card, typed = self._card_from(form)
        context.update(email=email, name=name, card_number=typed[:25])
        if email and not EMAIL.match(email):
            return self._page(
                "checkout.html", status=400, **{**context, "error": "Your email address is invalid."}
            )
        if session["mode"] == "subscription" and not email:
            return self._page(
                "checkout.html", status=400, **{**context, "error": "Enter your email address."}
            )
        if card is None:
            return self._page("checkout.html", status=402, **{**context, "error": INVALID_CARD})
        outcome = self.engine.checkout_pay(session, card, email, name)
        return self._after_payment(session, outcome, context, card.last4)

    def _after_payment(
        self, session: dict[str, Any], outcome: dict[str, Any], context: dict[str, Any], last4: str
    ) -> Response:
        if outcome["result"] == "succeeded":
            return redirect(_success_url(session, self.engine.base_url()), code=303)
        if outcome["result"] == "requires_action":
            return self._page(
                "authenticate.html",
                amount=format_money(session["amount_total"], session["currency"]),
                last4=last4,
                token=outcome["token"],
                action=f"/c/pay/{session['id']}/authenticate",
            )
        return self._page("checkout.html", status=402, **{**context, "error": outcome["message"]})

    def checkout_authenticate(self, request: Request, session_id: str) -> Response:
        session = self.store.get("checkout.session", session_id)
        if session is None:
            return self._message("Not found", "This checkout session does not exist.", status=404, alert=True)
        closed = self._closed_session(session)
        if closed is not None:
            return closed
        pending = session["_pending_auth"] or {}
        outcome = self.engine.checkout_authenticate(
            session, request.form.get("token", ""), request.form.get("outcome") == "complete"
        )
        context = self._checkout_context(session)
        context.update(email=pending.get("email", context["email"]), name=pending.get("name", ""))
        return self._after_payment(session, outcome, context, "")

    def checkout_done(self, request: Request, session_id: str) -> Response:
        session = self.store.get("checkout.session", session_id)
        if session is None or session["status"] != "complete":
            return self._message("Not found", "No completed checkout here.", status=404, alert=True)
        link = self.store.get("payment_link", session["payment_link"]) if session["payment_link"] else None
        custom = ((link or {}).get("after_completion") or {}).get("hosted_confirmation") or {}
        return self._message(
            "Thanks for your payment",
            custom.get("custom_message") or f"Your payment to {self.account_name} is complete.",
        )

    # --- payment links ---------------------------------------------------------------------------

    def payment_link(self, request: Request, token: str) -> Response:
        link = next((p for p in self.store.all("payment_link") if p["_token"] == token), None)
        if link is None:
            return self._message("Not found", "This payment link does not exist.", status=404, alert=True)
        if not link["active"]:
            return self._message(
                "Link inactive",
                link["inactive_message"] or "This link is no longer active.",
                status=410,
                alert=True,
            )
        args = request.args
        reference = args.get("client_reference_id", "")
        email = args.get("prefilled_email", "")
        base = self.engine.base_url()
        after = link["after_completion"]
        success_url = (
            after["redirect"]["url"]
            if after["type"] == "redirect"
            else f"{base}/c/done/{{CHECKOUT_SESSION_ID}}"
        )
        mode = link["_mode"]
        fields: dict[str, Any] = {
            "mode": mode,
            "payment_link": link["id"],
            "success_url": success_url,
            "metadata": dict(link["metadata"]),
            "allow_promotion_codes": link["allow_promotion_codes"],
            # Stripe silently drops a malformed client_reference_id or prefilled email.
            "client_reference_id": reference if CLIENT_REFERENCE.match(reference) else None,
            "customer_email": email if EMAIL.match(email) else None,
        }
        if mode == "subscription":
            data = link["subscription_data"] or {}
            fields["_subscription_data"] = {
                "metadata": dict(data.get("metadata") or {}),
                "description": data.get("description"),
                "trial_period_days": data.get("trial_period_days"),
            }
        else:
            data = link["payment_intent_data"] or {}
            fields["_payment_intent_data"] = {
                "metadata": dict(data.get("metadata") or {}),
                "description": data.get("description"),
            }
            fields["customer_creation"] = link["customer_creation"]
            fields["invoice_creation"] = link["invoice_creation"]
        session = self.engine.create_session(
            fields, [{"price": line["price"], "quantity": line["quantity"]} for line in link["_line_items"]]
        )
        return redirect(f"/c/pay/{session['id']}", code=303)

    # --- billing portal --------------------------------------------------------------------------

    def portal(self, request: Request, token: str) -> Response:
        session = next((s for s in self.store.all("billing_portal.session") if s["_token"] == token), None)
        if session is None:
            return self._message(
                "Not found", "This billing portal session does not exist.", status=404, alert=True
            )
        customer = self.store.get("customer", session["customer"])
        if customer is None:
            return self._message("Not found", "This customer no longer exists.", status=404, alert=True)
        config = self.engine.get("billing_portal.configuration", session["configuration"])
        notice = error = None
        status = 200
        if request.method == "POST":
            try:
                notice = self._portal_action(request, customer, config)
            except StripeError as failure:
                error, status = failure.message, failure.status
        return self._page(
            "portal.html", status=status, **self._portal_context(session, customer, config, notice, error)
        )

    def _portal_action(self, request: Request, customer: dict[str, Any], config: dict[str, Any]) -> str:
        sub = self.store.get("subscription", request.form.get("subscription", ""))
        if (
            sub is None
            or sub["customer"] != customer["id"]
            or sub["status"] not in ("active", "trialing", "past_due")
        ):
            raise StripeError(404, "This subscription cannot be changed here.")
        features = config["features"]
        action = request.form.get("do")
        if action == "cancel":
            cancel = features["subscription_cancel"]
            if not cancel["enabled"]:
                raise StripeError(403, "Cancelling is not enabled in this portal.")
            if cancel["mode"] == "immediately":
                self.engine.cancel_subscription(sub, reason="cancellation_requested")
                return "Your plan has been cancelled."
            self.engine.update_subscription(sub, {"cancel_at_period_end": True})
            return f"Your plan will be cancelled on {format_date(self.engine.sub_period(sub)[1])}."
        if action == "renew":
            self.engine.update_subscription(sub, {"cancel_at_period_end": False})
            return f"Your plan renews on {format_date(self.engine.sub_period(sub)[1])}."
        target = request.form.get("switch_to")
        if target:
            allowed = {option["price"] for option in self._switch_options(sub, config)}
            if target not in allowed:
                raise StripeError(400, "That plan is not available here.")
            item = sub["items"]["data"][0]
            self.engine.update_subscription(
                sub,
                {
                    "items": [{"id": item["id"], "price": target}],
                    "proration_behavior": features["subscription_update"]["proration_behavior"],
                },
            )
            if sub["status"] == "past_due":
                raise StripeError(
                    402, "Your plan was changed but the payment failed. Pay the open invoice below."
                )
            price = self.engine.price(target)
            return f"Your plan is now {self._price_label(price)}."
        raise StripeError(400, "Unknown action.")

    def _price_label(self, price: dict[str, Any]) -> str:
        money = format_money(price["unit_amount"], price["currency"])
        recurring = price["recurring"]
        if not recurring:
            return money
        count = recurring["interval_count"]
        per = recurring["interval"] if count == 1 else f"{count} {recurring['interval']}s"
        return f"{money} / {per}"

    def _switch_options(self, sub: dict[str, Any], config: dict[str, Any]) -> list[dict[str, str]]:
        update = config["features"]["subscription_update"]
        if not update["enabled"] or len(sub["items"]["data"]) != 1:
            return []
        current = self.engine.price(sub["items"]["data"][0]["_price"])
        if update["products"]:
            allowed = {p for entry in update["products"] for p in entry["prices"]}
        else:  # no list configured: the other active prices of the same product
            allowed = {p["id"] for p in self.store.all("price") if p["product"] == current["product"]}
        options = []
        for price_id in sorted(allowed):
            price = self.store.get("price", price_id)
            if (
                price is None
                or price["id"] == current["id"]
                or not price["active"]
                or not price["recurring"]
                or price["currency"] != current["currency"]
            ):
                continue
            interval = price["recurring"]["interval"]
            if (
                price["product"] == current["product"]
                and price["recurring"]["interval_count"] == 1
                and interval in ("month", "year")
                and interval != current["recurring"]["interval"]
            ):
                label = "Switch to yearly" if interval == "year" else "Switch to monthly"
            else:
                label = f"Switch to {self.engine.product_name(price['product'])} ({self._price_label(price)})"
            options.append({"price": price["id"], "label": label})
        return options

    def _portal_context(
        self,
        session: dict[str, Any],
        customer: dict[str, Any],
        config: dict[str, Any],
        notice: str | None,
        error: str | None,
    ) -> dict[str, Any]:
        subscriptions = []
        for sub in self.store.all("subscription"):
            if sub["customer"] != customer["id"] or sub["status"] not in ("active", "trialing", "past_due"):
                continue
            prices = [self.engine.price(item["_price"]) for item in sub["items"]["data"]]
            open_invoice = next(
                (
                    i
                    for i in self.store.all("invoice")
                    if i["status"] == "open"
                    and (self.engine._invoice_subscription(i) or {}).get("id") == sub["id"]
                ),
                None,
            )
            subscriptions.append(
                {
                    "id": sub["id"],
                    "name": " + ".join(self.engine.product_name(p["product"]) for p in prices),
                    "price": " + ".join(self._price_label(p) for p in prices),
                    "status": sub["status"],
                    "cancel_at_period_end": sub["cancel_at_period_end"],
                    "period_end": format_date(self.engine.sub_period(sub)[1]),
                    "switches": [] if sub["cancel_at_period_end"] else self._switch_options(sub, config),
                    "open_invoice": {
                        "amount": format_money(open_invoice["amount_remaining"], open_invoice["currency"]),
                        "url": f"/i/{open_invoice['id']}",
                    }
                    if open_invoice
                    else None,
                }
            )
        invoices = []
        if config["features"]["invoice_history"]["enabled"]:
            for invoice in self.store.all("invoice"):
                if invoice["customer"] == customer["id"] and invoice["status"] != "draft":
                    invoices.append(
                        {
                            "date": format_date(invoice["created"]),
                            "reason": (invoice["billing_reason"] or "").replace("_", " "),
                            "status": invoice["status"],
                            "amount": format_money(invoice["total"], invoice["currency"]),
                            "url": f"/i/{invoice['id']}",
                        }
                    )
        return {
            "customer": customer,
            "return_url": session["return_url"],
            "subscriptions": subscriptions,
            "invoices": invoices[:24],
            "can_cancel": config["features"]["subscription_cancel"]["enabled"],
            "action": f"/p/session/{session['_token']}",
            "notice": notice,
            "error": error,
        }

    # --- hosted invoice --------------------------------------------------------------------------

    def _invoice_context(self, invoice: dict[str, Any]) -> dict[str, Any]:
        return {
            "invoice": invoice,
            "lines": [
                {"description": line["description"], "amount": format_money(line["amount"], line["currency"])}
                for line in invoice["lines"]["data"]
            ],
            "amount_due": format_money(
                invoice["amount_remaining"] if invoice["status"] == "open" else invoice["amount_due"],
                invoice["currency"],
            ),
            "paid_on": format_date(invoice["status_transitions"]["paid_at"]),
            "test_cards": TEST_CARDS,
            "action": f"/i/{invoice['id']}",
            "error": None,
            "notice": None,
        }

    def invoice(self, request: Request, invoice_id: str) -> Response:
        invoice = self.store.get("invoice", invoice_id)
        if invoice is None or invoice["status"] == "draft":
            return self._message("Not found", "This invoice does not exist.", status=404, alert=True)
        context = self._invoice_context(invoice)
        if request.method == "GET":
            return self._page("invoice.html", **context)
        if invoice["status"] != "open":
            return self._page("invoice.html", status=409, **{**context, "error": "This invoice is not open."})
        card, _ = self._card_from(request.form)
        if card is None:
            return self._page("invoice.html", status=402, **{**context, "error": INVALID_CARD})
        customer = self.store.get("customer", invoice["customer"]) if invoice["customer"] else None
        outcome = self.engine.invoice_pay_with_card(
            invoice, card, (customer or {}).get("email") or "", (customer or {}).get("name") or ""
        )
        return self._after_invoice_payment(invoice, outcome, card.last4)

    def _after_invoice_payment(
        self, invoice: dict[str, Any], outcome: dict[str, Any], last4: str
    ) -> Response:
        context = self._invoice_context(invoice)
        if outcome["result"] == "succeeded":
            return self._page("invoice.html", **{**context, "notice": "Thank you: this invoice is paid."})
        if outcome["result"] == "requires_action":
            return self._page(
                "authenticate.html",
                amount=context["amount_due"],
                last4=last4,
                token=outcome["token"],
                action=f"/i/{invoice['id']}/authenticate",
            )
        return self._page("invoice.html", status=402, **{**context, "error": outcome["message"]})

    def invoice_authenticate(self, request: Request, invoice_id: str) -> Response:
        invoice = self.store.get("invoice", invoice_id)
        if invoice is None:
            return self._message("Not found", "This invoice does not exist.", status=404, alert=True)
        outcome = self.engine.invoice_authenticate(
            invoice, request.form.get("token", ""), request.form.get("outcome") == "complete"
        )
        return self._after_invoice_payment(invoice, outcome, "")


def _success_url(session: dict[str, Any], base: str) -> str:
    url = session["success_url"] or f"{base}/c/done/{{CHECKOUT_SESSION_ID}}"
    return url.replace("{CHECKOUT_SESSION_ID}", quote(session["id"]))
