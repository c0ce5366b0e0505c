"""The catalogue: prices, metadata, the products answer and who is shown what (SPEC sections 3, 6)."""

from __future__ import annotations

import pytest

from tandem.domain import catalogue
from tandem.domain.catalogue import StripeIds, Viewer, products_response

NOW = 1_790_000_000
IDS = StripeIds(
    prices={spec.lookup_key: f"price_{n}" for n, spec in enumerate(catalogue.PRICES)},
    links={kind: f"https://buy.stripe.test/{kind}" for kind in catalogue.LINK_KINDS},
)


def options(answer: dict) -> dict[str, list[str]]:
    """product id -> the labels shown, set by set."""
    return {
        p["id"]: [f"{key}:{o['label']}" for key in catalogue.PRICE_SETS for o in p["prices"][key]]
        for p in answer["products"]
    }


def test_the_catalogue_is_consistent_and_sells_every_payment_link_kind() -> None:
    catalogue.check()
    assert {p.link_kind for p in catalogue.PRICES if p.link_kind} == set(catalogue.LINK_KINDS)
    assert all(p.currency == "gbp" and p.unit_amount > 0 for p in catalogue.PRICES)


def test_the_check_names_what_is_wrong() -> None:
    bad = catalogue.PriceSpec("x", "nope", "main", "monthly", 100, "month", 6, "X")
    with pytest.raises(ValueError, match="unknown product"):
        catalogue.check([*catalogue.PRICES, bad])
    twice = [*catalogue.PRICES, catalogue.PRICES[0]]
    with pytest.raises(ValueError, match="twice"):
        catalogue.check(twice)


def test_prices_and_savings() -> None:
    monthly, yearly = catalogue.price("tandem_main_monthly"), catalogue.price("tandem_main_yearly")
    assert (monthly.unit_amount, yearly.unit_amount) == (4900, 47000)
    assert catalogue.yearly_saving() == 12 * 4900 - 47000 == 11800
    assert catalogue.discount_message(yearly) == "Save £118"
    assert catalogue.discount_message(monthly) is None
    assert catalogue.discount_message(catalogue.price("tandem_access_3_months")) == "Save £8"
    assert catalogue.discount_message(catalogue.price("tandem_feature_6_months")) == "Save £49"


def test_price_metadata_is_what_classify_reads_back() -> None:
    for spec in catalogue.PRICES:
        stripe_price = {
            "id": "price_1",
            "product": spec.product,
            "metadata": catalogue.price_metadata(spec),
            "lookup_key": None,  # the key moved on: the metadata still says what it sells
            "recurring": {"interval": spec.interval} if spec.interval else None,
            "unit_amount": spec.unit_amount,
        }
        info = catalogue.classify(stripe_price)
        assert info is not None
        assert (info.kind, info.credits, info.months, info.interval) == (
            spec.kind,
            spec.credits,
            spec.months,
            spec.interval,
        )
        assert info.days == (spec.days or (90 if spec.kind == "fixed_term" else None))
        assert info.product_id == spec.product and info.name == catalogue.product(spec.product).name


def test_classify_falls_back_to_the_product_then_the_lookup_key() -> None:
    by_product = catalogue.classify(
        {
            "id": "price_2",
            "metadata": {},
            "product": {"id": "prod_x", "name": "Old membership", "metadata": {"tandem_kind": "main"}},
            "recurring": {"interval": "month"},
        }
    )
    assert by_product is not None and by_product.kind == "main" and by_product.credits == 6
    assert by_product.name == "Old membership"
    by_key = catalogue.classify({"id": "price_3", "lookup_key": "tandem_extra_6", "metadata": {}})
    assert by_key is not None and (by_key.kind, by_key.credits, by_key.days) == ("extra", 6, 30)
    assert catalogue.classify({"id": "price_4", "metadata": {}, "lookup_key": "other"}) is None
    assert catalogue.classify(None) is None


def member(status: str = "none", **kwargs) -> Viewer:
    """What the catalogue offers a member whose Stripe plan is in `status` (the rights
    tandem.domain.entitlements gives them)."""
    from tandem.domain import entitlements as ent

    plan = {"fixed_term": "fixed_term"}.get(status, "monthly")
    stripe = ent.StripePart(
        status=status,
        plan=plan,
        valid_to=NOW + 10 * 86400,
        period_start=NOW - 86400,
        period_end=NOW + 10 * 86400,
        cancel_at=NOW + 10 * 86400 if status == "cancelled" else None,
        trial_end=NOW + 5 * 86400 if status == "trialling" else None,
        trial_used=kwargs.pop("trial_used", False),
    )
    plan_now = ent.plan_of(stripe, ent.TandemPart(), NOW)
    return ent.rights(plan_now, kwargs.pop("buckets", []), NOW, stripe=stripe, **kwargs).viewer()


def test_a_member_with_no_plan_is_offered_the_plans_with_the_yearly_saving_and_the_trial() -> None:
    answer = products_response(IDS, member("none"), NOW)
    assert answer["currency"] == "gbp"
    assert options(answer) == {
        "tandem_main": ["monthly:14-day free trial", "monthly:Monthly", "yearly:Yearly"],
        "tandem_access_3_months": ["one_time:3 months"],
    }
    assert answer["hasDiscount"] == {"message": "Save £118 a year with the yearly plan"}
    yearly = answer["products"][0]["prices"]["yearly"][0]
    assert yearly == {
        "id": IDS.prices["tandem_main_yearly"],
        "link": "https://buy.stripe.test/yearly",
        "unit_amount": 47000,
        "currency": "gbp",
        "count": 6,
        "months": 12,
        "type": "main",
        "discountMessage": "Save £118",
        "label": "Yearly",
    }
    trial = answer["products"][0]["prices"]["monthly"][0]
    assert trial["id"] == IDS.prices["tandem_main_monthly"] + ":trial"
    assert (trial["trialDays"], trial["trialCredits"]) == (14, 3)
    assert trial["discountMessage"] == "Free for 14 days, then £49 a month"
    assert answer["products"][0]["type"] == "main" and answer["products"][0]["name"] == "Tandem membership"
    assert (
        "monthly:14-day free trial"
        not in options(products_response(IDS, member("none", trial_used=True), NOW))["tandem_main"]
    )


def test_a_subscriber_is_offered_add_ons_not_plans() -> None:
    for status in ("active", "trialling", "pending_approval"):
        answer = products_response(IDS, member(status), NOW)
        assert options(answer) == {
            "tandem_extra_credits": ["one_time:3 credits", "one_time:6 credits"],
            "tandem_addon_credits": ["monthly:3 credits every month"],
        }, status
        assert answer["hasDiscount"] is None
        assert all(o["type"] == "extra" for p in answer["products"] for s in p["prices"].values() for o in s)


def test_a_cancelled_or_fixed_term_plan_gets_one_time_packs_only() -> None:
    for status in ("cancelled", "fixed_term"):
        assert options(products_response(IDS, member(status), NOW)) == {
            "tandem_extra_credits": ["one_time:3 credits", "one_time:6 credits"]
        }


def test_gifted_credits_alone_do_not_hide_the_plans() -> None:
    from tandem.domain.credits import Bucket

    gift = [Bucket("g", "gifted", 3, 3, NOW - 10, NOW + 86400)]
    offered = options(products_response(IDS, member("none", buckets=gift), NOW))
    assert "tandem_main" in offered and "tandem_extra_credits" not in offered


def test_options_below_the_credits_the_pop_up_needs_are_hidden() -> None:
    need = catalogue.credits_needed_for("/pitch/new")
    assert need == 3
    packs = options(products_response(IDS, member("active"), NOW, needed_credits=need))
    assert packs["tandem_extra_credits"] == ["one_time:3 credits", "one_time:6 credits"]
    assert "tandem_addon_credits" in packs
    hidden = options(products_response(IDS, member("active"), NOW, needed_credits=4))
    assert hidden == {"tandem_extra_credits": ["one_time:6 credits"]}
    assert catalogue.credits_needed_for("/pitch/p_12") == 1
    assert catalogue.credits_needed_for("/matches/brand/77") == 1
    assert catalogue.credits_needed_for("/matches/12/brand/77?x=1") == 1
    assert catalogue.credits_needed_for("/account/subscriptions") == 0
    assert catalogue.credits_needed_for(None) == 0


def test_feature_only_members_see_feature_options_only_for_an_unpaid_live_feature() -> None:
    def shown(feature: dict | None) -> dict:
        return options(products_response(IDS, member("none", feature_only=True, feature=feature), NOW))

    assert shown({"_id": "f1", "paid": False, "expires": None}) == {
        "tandem_feature": ["one_time:3 months", "one_time:6 months"]
    }
    assert shown({"_id": "f1", "paid": False, "expires": "2099-01-01T00:00:00Z"}) != {}
    assert shown({"_id": "f1", "paid": True, "expires": None}) == {}
    assert shown({"_id": "f1", "paid": False, "expires": "2001-01-01T00:00:00Z"}) == {}
    assert shown(None) == {}
    assert shown({"_id": None, "paid": False}) == {}
    feature = products_response(IDS, Viewer(features=True), NOW, needed_credits=6)["products"][0]
    assert feature["type"] == "feature" and len(feature["prices"]["one_time"]) == 2  # not hidden by credits


def test_a_price_not_in_stripe_yet_is_not_offered_and_links_can_be_built_by_the_caller() -> None:
    partial = StripeIds(prices={"tandem_main_monthly": "price_m"}, links={})
    answer = products_response(partial, Viewer(plans=True), NOW)
    assert options(answer) == {"tandem_main": ["monthly:Monthly"]}
    assert answer["hasDiscount"] is None and answer["products"][0]["prices"]["monthly"][0]["link"] is None
    built = products_response(
        IDS,
        Viewer(plans=True),
        NOW,
        link_for=lambda spec, price_id: f"/api/checkout?price={price_id}&k={spec.lookup_key}",
    )
    assert built["products"][0]["prices"]["monthly"][0]["link"] == (
        f"/api/checkout?price={IDS.prices['tandem_main_monthly']}&k=tandem_main_monthly"
    )


def test_credits_info_products_list_every_product_by_id() -> None:
    products = catalogue.credits_products(IDS)
    assert set(products) == {p.id for p in catalogue.PRODUCTS}
    assert products["tandem_feature"]["type"] == "feature" and products["tandem_main"]["type"] == "main"
    assert [o["label"] for o in products["tandem_main"]["prices"]["yearly"]] == ["Yearly"]
