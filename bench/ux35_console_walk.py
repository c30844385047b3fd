"""A new user's console walk (tidy35 item 2): system Chromium via Playwright against a real server.

Usage: PYTHONPATH=src .venv/bin/python bench/ux35_console_walk.py CHECKOUT DB PORT SHOT_DIR
(three memories added first when DB does not exist; auth off on loopback; screenshots to SHOT_DIR; at the end every
HTTP status >= 400, page error and JS console error/warning seen, and the server log's tail).
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(sys.argv[1])
DB = Path(sys.argv[2])
PORT = int(sys.argv[3])
SHOTS = Path(sys.argv[4])
ENV = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_")}
ENV.update(PYTHONPATH=str(ROOT / "src"), OMP_WAIT_POLICY="PASSIVE", PYTHONUNBUFFERED="1",
           HINDSIGHT_REVIEWED_NAMESPACES="kb", HINDSIGHT_REVIEW_SELF_APPROVAL="true")
HS = [sys.executable, "-m", "hindsight.cli"]
BASE = f"http://127.0.0.1:{PORT}"


def say(*a: object) -> None:
    print(*a, flush=True)


for content in ("The user prefers pnpm over npm for JavaScript projects",
                "部署前必须先在 staging 环境跑一遍集成测试",
                "Nightly backups run at 02:00 UTC and keep 14 days"):
    subprocess.run([*HS, "add", content, "--db", str(DB)], env=ENV, check=True, capture_output=True)
log = open(DB.with_suffix(".console.log"), "w")
srv = subprocess.Popen([*HS, "serve", "--transport", "http", "--port", str(PORT), "--db", str(DB)], env=ENV,
                       stdout=log, stderr=log)
problems: list[str] = []
try:
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", PORT), 1).close()
            break
        except OSError:
            time.sleep(1)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(120_000)
        page.on("console", lambda m: problems.append(f"js console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        page.on("response", lambda r: problems.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)

        def visit(url: str, name: str) -> None:
            page.goto(BASE + url)
            page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
            say(f"=== {name} {url} -> {page.url}\n{page.inner_text('main')[:1500]}")

        visit("/console", "browse")
        visit("/console?q=which+package+manager", "search_en")
        visit("/console?q=" + "部署之前要做什么", "search_zh")
        link = page.locator("a[href^='/console/memory/']").first
        href = link.get_attribute("href")
        visit(href, "memory")
        forms = page.locator("form").all()
        say("forms on memory page:", [f.get_attribute("action") for f in forms])
        # edit
        area = page.locator("textarea").first
        if area.count():
            area.fill("The user prefers bun over pnpm for JavaScript projects")
            area.locator("xpath=ancestor::form").first.locator("button").first.click()
            page.wait_for_load_state()
            page.screenshot(path=str(SHOTS / "after_edit.png"), full_page=True)
            say("=== after edit", page.url, page.inner_text("main")[:800])
        visit("/console/queues", "queues")
        visit("/console/health", "health")
        visit("/console/lang?to=zh&next=/console", "zh")
        visit("/console?q=备份", "search_zh_ui")
        visit("/console/memory/mem_doesnotexist?ns=default", "missing")
        visit("/console?ns=default&time_from=yesterday", "bad_filter")
        visit("/review", "review")
        page.set_viewport_size({"width": 390, "height": 800})
        visit("/console", "phone")
        sw = page.evaluate("document.documentElement.scrollWidth")
        say("phone scrollWidth", sw)
        browser.close()
finally:
    srv.terminate()
    srv.wait(30)
    log.close()
say("=== problems")
for p in problems:
    say(p)
say("=== server log tail")
say(DB.with_suffix(".console.log").read_text()[-3000:])
