import email
import re
from email import policy
from html.parser import HTMLParser

import pytest
from jinja2 import UndefinedError

from tandem.domain import unsubscribe
from tandem.integrations import email_templates
from tandem.integrations.email_templates import build_raw_message, render

SITE = "https://app.tandem.test"
UNSUB = f"{SITE}/unsubscribe/u1-tips-1-sig"
HOSTILE = 'Oat <script>alert("x")</script> & "Honey"'

MATCHES = [
    {"name": "Bean There", "category": "Coffee", "url": f"{SITE}/matches/brand/11"},
    {"name": "Loaf Life", "category": "", "url": f"{SITE}/matches/brand/12"},
]
CONTACT = {"name": "Ada Lovelace", "email": "ada@bean.test", "phone": "+44 20 7946 0000"}

# A realistic context for every message the product sends; the keys are what callers must pass.
SAMPLES: dict[str, dict] = {
    "confirm_email": {
        "first_name": "Ada",
        "confirm_url": f"{SITE}/confirm-email/c1",
        "expires_seconds": 604800,
    },
    "reset_password": {
        "first_name": "Ada",
        "reset_url": f"{SITE}/reset-password/r1",
        "expires_seconds": 3600,
    },
    "create_password": {
        "first_name": "Ada",
        "create_url": f"{SITE}/create-password/p1",
        "expires_seconds": 604800,
    },
    "instant_login": {"first_name": "Ada", "login_url": f"{SITE}/login/i1/u1", "expires_seconds": 900},
    "test_notification": {"first_name": "Ada"},
    "request_received": {
        "sender_brand": "Bean There",
        "recipient_brand": "Oat & Honey",
        "message": "We'd love to do a joint breakfast box.\nFancy a call?",
        "accept_url": f"{SITE}/quick-action/accept/1/2/req1-9-sig",
        "decline_url": f"{SITE}/quick-action/decline/1/2/req1-9-sig",
        "view_url": f"{SITE}/requests/received/1/req1",
        "link_days": 14,
    },
    "request_accepted": {
        "own_brand": "Bean There",
        "other_brand": "Oat & Honey",
        "contact": CONTACT,
        "connection_url": f"{SITE}/connections/2/1",
    },
    "connection_made": {
        "own_brand": "Oat & Honey",
        "other_brand": "Bean There",
        "contact": CONTACT,
        "connection_url": f"{SITE}/connections/1/2",
    },
    "request_declined": {
        "own_brand": "Bean There",
        "other_brand": "A granola brand",
        "credit_returned": True,
        "reply": "Thanks, but we're fully booked this season.",
        "declines_url": f"{SITE}/declines/out/2",
    },
    "request_expired": {
        "own_brand": "Bean There",
        "other_brand": "A granola brand",
        "days": 14,
        "credit_returned": True,
        "declines_url": f"{SITE}/declines/out/2",
    },
    "request_reminder": {
        "sender_brand": "Bean There",
        "recipient_brand": "Oat & Honey",
        "message": "Shall we run a giveaway together?",
        "days_left": 11,
        "accept_url": f"{SITE}/quick-action/accept/1/2/abc-1-sig",
        "decline_url": f"{SITE}/quick-action/decline/1/2/abc-1-sig",
        "view_url": f"{SITE}/requests/received/1/abc",
    },
    "new_matches": {
        "brand": "Bean There",
        "total": 5,
        "matches": MATCHES,
        "matches_url": f"{SITE}/matches/2",
    },
    "new_matches_digest": {
        "total": 3,
        "brands": [
            {"brand": "Bean There", "total": 2, "matches": MATCHES, "matches_url": f"{SITE}/matches/2"},
            {"brand": "Oat & Honey", "total": 1, "matches": MATCHES[:1], "matches_url": f"{SITE}/matches/3"},
        ],
        "matches_url": f"{SITE}/matches",
    },
    "pitch_received": {
        "brand": "Oat & Honey",
        "pitcher_brand": "Bean There",
        "message": "Our cafés could stock your granola.",
        "pitch_url": f"{SITE}/pitch/p1",
    },
    "feature_approved": {"brand": "Oat & Honey", "live_until": 1798761600, "pitch_url": f"{SITE}/pitch/p1"},
    "feature_ended": {"brand": "Oat & Honey", "ended_early": False, "new_feature_url": f"{SITE}/pitch/new"},
    "feature_refused": {
        "brand": "Oat & Honey",
        "reason": "Please describe what you offer.",
        "credits_returned": 3,
        "payment": None,
        "new_feature_url": f"{SITE}/pitch/new",
    },
    "payment_received": {
        "amount": 4900,
        "currency": "gbp",
        "description": "the monthly subscription",
        "billing_url": f"{SITE}/account/subscriptions/",
    },
    "subscription_approved": {
        "plan": "monthly",
        "credits": 6,
        "matches_url": f"{SITE}/matches",
        "billing_url": f"{SITE}/account/subscriptions/",
    },
    "subscription_refused": {
        "plan": "monthly",
        "reason": "We couldn't verify the brand's website.",
        "billing_url": f"{SITE}/account/subscriptions/",
    },
    "refund_issued": {
        "amount": 1250,
        "currency": "usd",
        "description": "a one-time credit pack",
        "billing_url": f"{SITE}/account/subscriptions/",
    },
    "tip": {
        "title": "Three collab ideas for autumn",
        "paragraphs": ["Seasonal boxes work well.", "Try a shared giveaway."],
        "cta_label": "See Collab Ideas",
        "cta_url": f"{SITE}/inspiration/ideas",
    },
    "collaboration_update": {
        "brand": "Fern Candles",
        "other_brand": "Oat & Co",
        "what": "wrote about",
        "title": "A candlelit supper club & more",
        "message": "Shall we do 40 seats?",
        "collab_url": f"{SITE}/collaborations/0123456789abcdef",
    },
    "collaboration_reminder": {
        "brand": "Fern Candles",
        "other_brand": "Oat & Co",
        "title": "A candlelit supper club",
        "reminder": "it starts on 2027-03-20",
        "collab_url": f"{SITE}/collaborations/0123456789abcdef",
    },
}

# The main link of each message: it must be in both versions.
MAIN_LINK = {
    "confirm_email": "confirm_url",
    "reset_password": "reset_url",
    "create_password": "create_url",
    "instant_login": "login_url",
    "request_received": "accept_url",
    "request_accepted": "connection_url",
    "connection_made": "connection_url",
    "request_declined": "declines_url",
    "request_expired": "declines_url",
    "request_reminder": "accept_url",
    "new_matches": "matches_url",
    "new_matches_digest": "matches_url",
    "pitch_received": "pitch_url",
    "feature_approved": "pitch_url",
    "feature_ended": "new_feature_url",
    "feature_refused": "new_feature_url",
    "payment_received": "billing_url",
    "subscription_approved": "matches_url",
    "subscription_refused": "billing_url",
    "refund_issued": "billing_url",
    "tip": "cta_url",
    "collaboration_update": "collab_url",
    "collaboration_reminder": "collab_url",
}


def _render(name: str, **overrides):
    context = {**SAMPLES[name], "site_url": SITE, **overrides}
    if email_templates.MESSAGES[name].source and "unsubscribe_url" not in overrides:
        context["unsubscribe_url"] = UNSUB
    return render(name, **context)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.append(dict(attrs).get("href", ""))
        if tag == "script":
            self.scripts += 1


def _links(html: str) -> _Links:
    parser = _Links()
    parser.feed(html)
    return parser


def test_every_message_has_a_sample():
    assert set(SAMPLES) == set(email_templates.MESSAGES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_template_renders_subject_text_and_html(name):
    subject, text, html = _render(name)
    assert subject and "\n" not in subject and len(subject) < 120
    assert html.lstrip().startswith("<!DOCTYPE html>") and "</html>" in html
    assert ">Tandem</a>" in html  # the wordmark
    assert "Why am I getting this?" in html and "Why am I getting this?" in text
    assert f"{SITE}/account/notifications/" in text
    assert f"{SITE}/account/notifications/" in _links(html).hrefs
    if name in MAIN_LINK:
        url = SAMPLES[name][MAIN_LINK[name]]
        assert url in text
        assert url in _links(html).hrefs


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_text_version_has_no_html(name):
    _, text, _ = _render(name)
    assert not re.search(r"</?[a-zA-Z][^>]*>", text), text
    assert not re.search(r"&(amp|lt|gt|quot|#\d+|nbsp|middot);", text), text


def test_request_received_carries_both_quick_actions_as_buttons():
    _, text, html = _render("request_received")
    hrefs = _links(html).hrefs
    assert SAMPLES["request_received"]["accept_url"] in hrefs
    assert SAMPLES["request_received"]["decline_url"] in hrefs
    assert (
        "Accept (you'll both get each other's contact details): " + SAMPLES["request_received"]["accept_url"]
        in text
    )
    assert "We&#39;d love to do a joint breakfast box.<br>\nFancy a call?" in html


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("request_received", "sender_brand"),
        ("request_received", "message"),
        ("request_declined", "reply"),
        ("request_accepted", "other_brand"),
        ("pitch_received", "pitcher_brand"),
        ("new_matches", "brand"),
    ],
)
def test_html_escapes_member_supplied_text(name, field):
    subject, text, html = _render(name, **{field: HOSTILE})
    assert "<script>" not in html and _links(html).scripts == 0
    assert "Oat &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#34;Honey&#34;" in html
    assert HOSTILE in text  # plain text shows it as typed: nothing runs in text/plain


def test_contact_details_and_a_missing_contact():
    _, text, html = _render("request_accepted")
    assert "Email: ada@bean.test" in text and "Phone: +44 20 7946 0000" in text
    assert "mailto:ada@bean.test" in _links(html).hrefs
    _, text, html = _render("request_accepted", contact=None)
    assert "They haven't added contact details yet" in text
    assert "They haven't added contact details yet" in html


def test_hostile_contact_email_cannot_break_out_of_the_link():
    _, _, html = _render("request_accepted", contact={"email": 'x@y.test" onclick="alert(1)'})
    assert 'onclick="alert(1)"' not in html
    assert "mailto:x@y.test&#34; onclick=&#34;alert(1)" in html


def test_declined_tells_whether_the_credit_came_back():
    _, text, _ = _render("request_declined")
    assert "Your credit has been returned." in text
    _, text, _ = _render("request_declined", credit_returned=False)
    assert "The credit was not returned because the request's subscription month had ended." in text
    assert "Thanks, but we're fully booked this season." in text


def test_new_matches_counts_the_ones_not_listed():
    subject, text, html = _render("new_matches")
    assert subject == "5 new matches for Bean There"
    assert "...and 3 more." in text and "Bean There" in html
    subject, _, _ = _render("new_matches", total=1, matches=MATCHES[:1])
    assert subject == "1 new match for Bean There"
    subject, text, _ = _render("new_matches_digest")
    assert subject == "Your daily matches: 3 new brands"
    assert "Oat & Honey: 1 new" in text


def test_money_and_dates_follow_the_product_formats():
    subject, text, _ = _render("payment_received")
    assert subject == "Payment received: £49"
    subject, _, _ = _render("refund_issued")
    assert subject == "Refund issued: $12.50"
    _, text, _ = _render("feature_approved")
    assert "until 1 January 2027" in text
    assert email_templates.money(123456, "gbp") == "£1,234.56"
    assert email_templates.duration(900) == "15 minutes"
    assert email_templates.duration(3600) == "an hour"
    assert email_templates.duration(604800) == "7 days"


def test_account_mail_lifetimes_are_in_words():
    _, text, _ = _render("instant_login")
    assert "expires in 15 minutes" in text
    _, text, _ = _render("confirm_email")
    assert "expires in 7 days" in text


def test_unsubscribe_link_for_optional_sources_only():
    _, text, html = _render("tip")
    assert f"Unsubscribe from Tips emails: {UNSUB}" in text
    assert UNSUB in _links(html).hrefs
    for required in ("payment_received", "feature_approved", "confirm_email"):
        _, text, html = _render(required, unsubscribe_url=UNSUB)
        assert UNSUB not in text and UNSUB not in html  # nothing to switch off
    with pytest.raises(ValueError, match="needs its unsubscribe_url"):
        render("request_received", site_url=SITE, **SAMPLES["request_received"])


def test_a_missing_field_fails_loudly():
    context = dict(SAMPLES["request_received"], site_url=SITE, unsubscribe_url=UNSUB)
    del context["decline_url"]
    with pytest.raises(UndefinedError):
        render("request_received", **context)
    with pytest.raises(ValueError, match="Unknown email template"):
        render("nope", site_url=SITE)


def test_subject_lines_cannot_carry_header_breaks():
    subject, _, _ = _render("request_received", sender_brand="Bean\r\nBcc: victim@example.com")
    assert "\n" not in subject and "\r" not in subject


# ---------------------------------------------------------------- raw MIME for SES


def test_raw_message_is_multipart_alternative_utf8_with_unsubscribe_headers():
    subject, text, html = _render("request_received", sender_brand="Café Crème")
    headers = unsubscribe.list_unsubscribe_headers(f"{SITE}/api/notifications/unsubscribe/tok")
    raw = build_raw_message(
        sender="Tandem <hello@tandem.test>",
        to=["ada@bean.test", "bob@bean.test"],
        subject=subject,
        text=text,
        html=html,
        reply_to="reply@tandem.test",
        headers=headers,
    )
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed.get_content_type() == "multipart/alternative"
    assert parsed["Subject"] == subject and "Café Crème" in parsed["Subject"]
    assert parsed["To"] == "ada@bean.test, bob@bean.test"
    assert parsed["Reply-To"] == "reply@tandem.test"
    assert parsed["List-Unsubscribe"] == f"<{SITE}/api/notifications/unsubscribe/tok>"
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    parts = list(parsed.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    assert all(p.get_content_charset() == "utf-8" for p in parts)
    assert parts[0].get_content().replace("\r\n", "\n") == text
    assert parts[1].get_content().replace("\r\n", "\n") == html
    assert raw.isascii()  # 7-bit safe on the wire: headers encoded, bodies transfer-encoded


def test_raw_message_refuses_header_injection_and_no_recipient():
    with pytest.raises(ValueError):
        build_raw_message(sender="a@b.test", to=["c@d.test"], subject="Hi\r\nBcc: e@f.test", text="x")
    with pytest.raises(ValueError, match="at least one recipient"):
        build_raw_message(sender="a@b.test", to=[], subject="Hi", text="x")


def test_text_only_message():
    raw = build_raw_message(sender="a@b.test", to=["c@d.test"], subject="Hi", text="Hello\n")
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed.get_content_type() == "text/plain"
    assert parsed.get_content() == "Hello\r\n"  # CRLF on the wire


def test_each_message_names_a_real_source_and_sub_option():
    from tandem.domain import notifications

    for name, message in email_templates.MESSAGES.items():
        if message.source:
            notifications.channels_for(None, message.source, message.sub_option)  # raises if inconsistent
        else:
            assert message.sub_option is None, name
