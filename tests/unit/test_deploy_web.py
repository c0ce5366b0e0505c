"""The web deploy refuses a build whose footer still links to the placeholder public site."""

from __future__ import annotations

import pytest

from infra.deploy_web import DEFAULT_SITE_URL, refuse_default_site_url


def test_a_build_linking_to_the_placeholder_site_is_refused(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "index-abc.js").write_text(f'const t="{DEFAULT_SITE_URL}/terms";')
    with pytest.raises(SystemExit, match="VITE_SITE_URL"):
        refuse_default_site_url(tmp_path)


def test_a_build_with_the_site_address_set_goes_ahead(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "index-abc.js").write_text('const t="https://www.tandemhub.co/terms";')
    refuse_default_site_url(tmp_path)


def test_the_placeholder_is_the_web_apps_default():
    from pathlib import Path

    env = (Path(__file__).resolve().parents[2] / "web/src/config/env.ts").read_text()
    assert f"const DEFAULT_SITE_URL = '{DEFAULT_SITE_URL}';" in env
