"""Console round 15 in a real Chromium against `hindsight serve --transport http` with tokens required: the
browser-only parts of bulk actions (the keyboard's x ticks the current result, "select all on this page", `]`
turns the page) and the one confirmation before a bulk deprecate; the store is checked through the engine.
Fails on main (596dac9): there are no checkboxes, no bulk form and no x / ] keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import http_server
from test_console_e2e import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, sync_api

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.security.tokens import TokenStore


def _engine(db: Path, embedder: Any) -> MemoryEngine:
    return MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, embedder: Any) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("console15")
    db = folder / "memory.db"
    engine = _engine(db, embedder)
    engine.store_many([{"content": f"第{i}号服务的数据库备份保留{i % 9 + 1}天" if i % 2 else
                        f"Service {i} deploys on weekday {i % 5}", "namespace": "team", "tags": ["ops"]}
                       for i in range(60)])
    engine.close()
    tokens = TokenStore.open(db)
    writer, _ = tokens.create("wanda", ["write"], ["team"])
    tokens.close()
    with (http_server(db, folder / "server.log") as url, sync_api.sync_playwright() as playwright):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield {"db": db, "base": url.removesuffix("/mcp"), "writer": writer, "browser": browser,
                   "embedder": embedder}
        finally:
            browser.close()


def test_a_writer_deprecates_two_results_by_keyboard_after_one_confirmation(world: dict[str, Any]) -> None:
    page = world["browser"].new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(world["base"] + "/console")  # the sign-in page answers 401, which the browser logs
    page.fill("#token", world["writer"])
    page.click("button.primary")
    page.wait_for_url("**/console")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(world["base"] + "/console?ns=team&tags=ops")
    page.wait_for_selector("article.hit")
    assert page.locator("#pick-all-label").is_visible()  # shown only where JavaScript runs
    page.keyboard.press("j")
    page.keyboard.press("x")
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.keyboard.press("x")
    ticked = [box.get_attribute("value") for box in page.locator("input.pick:checked").all()]
    cards = [card.get_attribute("data-id") for card in page.locator("article.hit").all()]
    assert ticked == [cards[0], cards[2]]
    page.check("#pick-all")  # select all on this page, then none again
    assert page.locator("input.pick:checked").count() == page.locator("input.pick").count() == 50
    page.uncheck("#pick-all")
    assert page.locator("input.pick:checked").count() == 0
    for card_id in ticked:
        page.check(f"input.pick[value='{card_id}']")
    page.locator("#bulk select[name=action]").select_option("deprecate")
    page.click("#bulk-apply")
    page.wait_for_selector("#bulk-question")
    assert page.locator("ol.bulk-list li").count() == 2
    engine = _engine(world["db"], world["embedder"])
    try:
        assert all(engine.store.get(i).status == Status.active for i in ticked)  # asked, not done
        page.click("#bulk-confirm")
        page.wait_for_selector("#bulk-summary")
        assert "2 done" in page.inner_text("#bulk-summary")
        assert all(engine.store.get(i).status == Status.deprecated for i in ticked)
    finally:
        engine.close()
    page.click("#back")  # back to the same filter, and ] turns its page
    page.wait_for_selector("article.hit")
    page.keyboard.press("]")
    page.wait_for_url("**offset=50**")
    assert page.locator("article.hit").count() == 10
    assert not errors, errors
    page.context.close()
