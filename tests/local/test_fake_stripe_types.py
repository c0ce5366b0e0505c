"""The fake's objects hold to the installed stripe library's typed resources (its type hints
for API_VERSION): every field the fake writes is one Stripe has, with a value of the type the
library declares, and no field the library declares as always present is left out. A history
with every kind of object is built in-process and every object and every event's snapshot is
checked, so the fake cannot drift from Stripe as either changes."""

from __future__ import annotations

import sys
import types
import typing
from typing import Any, ForwardRef, Literal, Union, get_args, get_origin

import stripe
from stripe import StripeObject
from stripe._list_object import ListObject

from infra.local.fake_stripe.cards import parse_card
from infra.local.fake_stripe.webhooks import Dispatcher
from tests.unit.stripe_world import DAY, World, ts

T0 = ts(2026, 3, 2)
CLASSES: dict[str, type[StripeObject]] = {
    "product": stripe.Product,
    "price": stripe.Price,
    "customer": stripe.Customer,
    "checkout.session": stripe.checkout.Session,
    "subscription": stripe.Subscription,
    "invoice": stripe.Invoice,
    "invoice_payment": stripe.InvoicePayment,
    "payment_intent": stripe.PaymentIntent,
    "charge": stripe.Charge,
    "refund": stripe.Refund,
    "payment_method": stripe.PaymentMethod,
    "payment_link": stripe.PaymentLink,
    "billing_portal.session": stripe.billing_portal.Session,
    "billing_portal.configuration": stripe.billing_portal.Configuration,
    "event": stripe.Event,
    "webhook_endpoint": stripe.WebhookEndpoint,
}
INCLUDABLE = {  # fields Stripe sends only when asked (expand): checked with them
    "invoice": ["payments"],
    "checkout.session": ["line_items"],
    "payment_link": ["line_items"],
    "charge": ["refunds"],
}


def _names() -> dict[str, Any]:
    """The names the library's annotations use (they are strings: its imports are TYPE_CHECKING)."""
    names: dict[str, Any] = dict(vars(typing))
    for module in (stripe.billing_portal, stripe.checkout, stripe):  # the top level wins a clash
        listed = set(dir(module)) | set(getattr(module, "_import_map", {}))  # stripe imports lazily
        found = {name: getattr(module, name) for name in listed if name[:1].isupper()}
        names.update({k: v for k, v in found.items() if isinstance(v, type)})
    return names


NAMES = _names()
_HINTS: dict[type, dict[str, Any]] = {}


def fields_of(cls: type) -> dict[str, Any]:
    """The declared fields of a StripeObject class (its own and inherited), evaluated."""
    if cls not in _HINTS:
        hints: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            scope = {**vars(sys.modules[klass.__module__]), **NAMES}
            for name, annotation in klass.__dict__.get("__annotations__", {}).items():
                if name.startswith("_") or "ClassVar" in str(annotation):
                    continue
                hints[name] = (
                    eval(annotation, scope, dict(vars(klass))) if isinstance(annotation, str) else annotation
                )
        _HINTS[cls] = hints
    return _HINTS[cls]


def _resolve(hint: Any) -> Any:
    return NAMES[hint.__forward_arg__] if isinstance(hint, ForwardRef) else hint


def problems(value: Any, hint: Any, path: str) -> list[str]:
    """What is wrong with `value` as the library types `hint` (empty: nothing)."""
    hint = _resolve(hint)
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return []
    if origin in (Union, types.UnionType):
        if value is None:
            return [] if type(None) in args else [f"{path}: null where the library has {hint}"]
        tried = [problems(value, arg, path) for arg in args if arg is not type(None)]
        return [] if any(not found for found in tried) else min(tried, key=len)
    if origin is Literal:
        return [] if value in args else [f"{path}: {value!r} is none of {args}"]
    if hint in (str, int, bool, float):
        ok = isinstance(value, hint) and not (hint is int and isinstance(value, bool))
        ok = ok or (hint is float and isinstance(value, int) and not isinstance(value, bool))
        return [] if ok else [f"{path}: {value!r} is not {hint.__name__}"]
    if origin in (list, typing.List):  # noqa: UP006
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        return [p for i, v in enumerate(value) for p in problems(v, args[0], f"{path}[{i}]")]
    if origin in (dict, typing.Dict):  # noqa: UP006
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a map"]
        return [p for k, v in value.items() for p in problems(v, args[1], f"{path}.{k}")]
    if origin is ListObject or hint is ListObject:
        if (
            not isinstance(value, dict)
            or value.get("object") != "list"
            or not isinstance(value.get("data"), list)
        ):
            return [f"{path}: not a list object"]
        item = args[0] if args else Any
        return [p for i, v in enumerate(value["data"]) for p in problems(v, item, f"{path}.data[{i}]")]
    if isinstance(hint, type) and issubclass(hint, StripeObject):
        return object_problems(value, hint, path)
    return []  # a type the check does not know (there is none today) passes


def object_problems(value: Any, cls: type, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path}: {value!r} is not a {cls.__name__} object"]
    declared = fields_of(cls)
    found = [f"{path}.{key}: {cls.__qualname__} has no such field" for key in value if key not in declared]
    for key, hint in declared.items():
        if key in value:
            found += problems(value[key], hint, f"{path}.{key}")
        elif get_origin(hint) not in (Union, types.UnionType) or type(None) not in get_args(hint):
            found.append(f"{path}.{key}: missing ({cls.__qualname__} always has it)")
    return found


def _world() -> World:
    """Every kind of object the fake makes, in the states the app meets them in."""
    world = World()
    engine = world.engine
    sub = world.subscribe("tandem_main_monthly", T0)
    world.renew(sub, paid=False)
    world.pay(world.invoices[-1], engine.sub_period(sub)[0] + DAY)
    world.change_price(sub, "tandem_main_yearly", engine.sub_period(sub)[0] + 10 * DAY)
    engine.fail_next_charge("authentication_required")
    world.renew(sub)  # the renewal waits for 3-D Secure: an intent with its next_action
    trial = world.subscribe("tandem_addon_monthly_3", T0 + DAY, trial_days=7)
    world.cancel_at_period_end(trial, T0 + 2 * DAY)
    world.buy("tandem_extra_3", T0 + 3 * DAY, quantity=2)
    world.open_session("tandem_extra_6", T0 + 4 * DAY)
    world.refund(world.charges[0]["payment_intent"], T0 + 5 * DAY, amount=100)
    world.end(trial, T0 + 6 * DAY)
    declined = engine.create_session(
        {"mode": "payment", "customer": world.customer["id"]},
        [{"price": world.price("tandem_extra_3")["id"], "quantity": 1}],
    )
    card = parse_card("4000 0000 0000 0002")
    assert card is not None
    engine.checkout_pay(declined, card, "member@tandem.test", "Mia Member")
    engine.create_payment_link([{"price": world.price("tandem_extra_3")["id"], "quantity": 1}], "payment", {})
    engine.create_portal_session(world.customer, engine.default_portal_configuration(), None, None)
    Dispatcher(world.store).add_endpoint("https://example.test/hook", enabled_events=["*"])
    return world


def test_every_object_and_event_of_the_fake_holds_to_the_stripe_librarys_types() -> None:
    world = _world()
    store, engine = world.store, world.engine
    assert set(CLASSES) <= set(store.tables), set(CLASSES) - set(store.tables)  # every kind is there
    found: list[str] = []
    for kind, cls in CLASSES.items():
        for stored in store.all(kind):
            rendered = engine.render(kind, stored, INCLUDABLE.get(kind, []))
            found += object_problems(rendered, cls, f"{kind} {stored['id']}")
            if kind == "event":
                snapshot = rendered["data"]["object"]
                inner = CLASSES[store.kind_of[snapshot["id"]]]
                found += object_problems(snapshot, inner, f"{rendered['type']} {stored['id']} data.object")
    assert found == [], "\n".join(sorted(set(found))[:60])


def test_the_check_sees_an_invented_field_a_wrong_type_and_a_missing_one() -> None:
    world = World()
    price = world.price("tandem_main_monthly")
    assert object_problems(price, stripe.Price, "price") == []
    broken = {**price, "colour": "red", "unit_amount": "1999"}
    del broken["currency"]
    assert sorted(object_problems(broken, stripe.Price, "price")) == [
        "price.colour: Price has no such field",
        "price.currency: missing (Price always has it)",
        "price.unit_amount: '1999' is not int",
    ]
