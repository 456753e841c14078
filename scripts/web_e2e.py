#!/usr/bin/env python3
"""End-to-end test of `arbor serve` in a real headless browser (Debian's chromium driven
by Playwright): a whole Othello game on a phone-sized screen and a Gomoku game on a
desktop one, against the engine, with live analysis on. Saves screenshots.

usage: web_e2e.py [ARBOR] [--shots DIR]   (ARBOR default target/release/arbor)
"""

import argparse
import os
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
GAME_TIMEOUT = 300  # seconds for one whole game


def start_server(arbor):
    server = subprocess.Popen(
        [arbor, "serve", "--port", "0", "--hash", "16"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = server.stdout.readline().strip()
    prefix = "arbor serve: listening on "
    if not line.startswith(prefix):
        server.kill()
        sys.exit(f"no address from arbor serve: {line!r}")
    return server, line[len(prefix):]


def state(page):
    return page.evaluate(
        "() => state && {side: state.side, result: state.result, busy: state.busy,"
        " plies: state.history.length, legal: state.legal.map(m => m.name)}"
    )


def wait(what, check, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def play_as_black(page, pick):
    """Black is the page's user: clicks (or passes) until the result is shown; the
    engine answers as White."""
    deadline = time.time() + GAME_TIMEOUT
    analysed = 0
    while True:
        assert time.time() < deadline, "the game did not end in time"
        s = state(page)
        if s["result"]:
            break
        if s["side"] != "black" or s["busy"] == "go" or not s["legal"]:
            time.sleep(0.05)
            continue
        if page.locator("text.score").count() > 0:
            analysed += 1
        if s["legal"] == ["pass"]:
            page.click("#pass")
        else:
            page.click(f'rect.cell[data-move="{pick(s["legal"])}"]')
        plies = s["plies"]
        wait("the move", lambda: (state(page)["plies"] > plies))
    result = page.inner_text("#result")
    assert result.startswith("Result:"), result
    return result, analysed


def switch_on_analysis(page):
    page.check("#analyze")
    wait("analysis lines", lambda: page.inner_text("#lines").strip())
    wait("scores on the board", lambda: page.locator("text.score").count() > 0)
    assert page.locator("#evalfill").get_attribute("style")


def othello(browser, url, shots):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    wait("the board", lambda: page.locator("rect.cell").count() == 4)
    assert "othello" in page.inner_text("#game")
    switch_on_analysis(page)
    page.screenshot(path=os.path.join(shots, "othello-start.png"))
    page.select_option("#time", "300")
    page.select_option("#engine", "white")
    result, analysed = play_as_black(page, lambda legal: legal[0])
    assert analysed > 0, "no analysis was shown during the game"
    assert page.locator("polyline.evalline").count() == 1, "no evaluation graph"
    assert page.locator("svg#board circle").count() > 10
    page.click("#saveggf")
    wait("the GGF record", lambda: page.input_value("#record").startswith("(;GM[Othello]"))
    page.screenshot(path=os.path.join(shots, "othello-end.png"), full_page=True)
    assert not errors, errors
    print(f"othello: {result} ({state(page)['plies']} plies)")
    page.close()


def gomoku(browser, url, shots):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    wait("the board", lambda: state(page))
    page.click("#new")
    page.select_option("#gamesel", "gomoku")
    page.select_option("#opts select[name=size]", "15")
    page.click("#newform button[value=ok]")
    wait("the Gomoku board", lambda: "gomoku" in page.inner_text("#game"))
    switch_on_analysis(page)
    page.screenshot(path=os.path.join(shots, "gomoku-analysis.png"))
    page.select_option("#time", "300")
    page.select_option("#engine", "white")
    # Black plays the first free point each time: the engine should win.
    result, analysed = play_as_black(page, lambda legal: legal[0])
    assert analysed > 0, "no analysis was shown during the game"
    assert result == "Result: white wins", result
    page.click("#savetext")
    wait("the text record", lambda: "variant \"gomoku" in page.input_value("#record"))
    page.screenshot(path=os.path.join(shots, "gomoku-end.png"), full_page=True)
    assert not errors, errors
    print(f"gomoku: {result} ({state(page)['plies']} plies)")
    page.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("arbor", nargs="?", default="target/release/arbor")
    parser.add_argument("--shots", default="target/web-e2e")
    args = parser.parse_args()
    os.makedirs(args.shots, exist_ok=True)
    server, url = start_server(args.arbor)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox"]
            )
            othello(browser, url, args.shots)
            gomoku(browser, url, args.shots)
            browser.close()
    finally:
        server.kill()
        server.wait()
    print(f"web e2e: ok, screenshots in {args.shots}")


if __name__ == "__main__":
    main()
