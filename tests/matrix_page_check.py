#!/usr/bin/env python3
"""matrix_page_check.py PAGE.html REPORT.json

Opens the interop matrix's HTML page (adc-conform matrix --html) in headless
Chromium and reads back what the browser built of it, against the JSON
report of the same matrix (--report-json):

  grid      the cells read from every td[data-producer] are the report's
            matrix.cells (producer, consumer, device, worst, cases,
            counts.pass), each once; a cell "none" is a pair the report
            does not hold;
  inert     no element has data-owned, the title is the page's own, the
            DOM holds no <script>, and the page forbids script and fetches
            (its Content-Security-Policy) and names no resource outside it;
  messages  every case message of the report that holds '<' is in the
            page's text, as text.

The DOM is the one Chromium dumps after loading the page, so that whatever
a message could have made a browser do (run a script, add an element) is
in it.  Prints one line per check; exits 0 when all hold, 1 naming the
first difference, 77 (a skip to ctest) when no Chromium is found.  Only the
standard library: it runs wherever the suite's tests run.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

SKIP = 77
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CSP = "default-src 'none'; style-src 'unsafe-inline'"


def find_chromium():
    """The browser: $ADC_CHROMIUM, else the first of the usual names on PATH."""
    named = os.environ.get("ADC_CHROMIUM")
    if named:
        return shutil.which(named)
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def dump_dom(chromium, page):
    """The DOM Chromium built of `page`, serialized; raises RuntimeError."""
    url = "file://" + os.path.abspath(page)
    # A profile of its own: a user's (or a concurrent run's) must not be
    # touched, nor its lock waited on.
    with tempfile.TemporaryDirectory(prefix="adc-chromium-") as profile:
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                   "--no-first-run", "--user-data-dir=" + profile, "--dump-dom", url]
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        except subprocess.TimeoutExpired:
            raise RuntimeError("chromium did not finish within 120 s")
    dom = done.stdout.decode("utf-8", "replace")
    if done.returncode != 0 or "<html" not in dom:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise RuntimeError("chromium exited %d without a DOM: %s" % (done.returncode, " | ".join(tail)))
    return dom


class PageReader(HTMLParser):
    """What the checks read of a document: the grid cells, the title, the
    elements that must not be there, and the text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells = []
        self.owned = []
        self.scripts = 0
        self.csp = []
        self.outside = []
        self.title = ""
        self.text = []
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self._element(tag, attrs)

    def handle_startendtag(self, tag, attrs):
        self._element(tag, attrs)

    def _element(self, tag, attrs):
        values = dict(attrs)
        if "data-owned" in values:
            self.owned.append(tag)
        if tag == "script":
            self.scripts += 1
        if tag == "title":
            self._in_title = True
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp.append(values.get("content") or "")
        for name in ("src", "href", "action", "srcset", "data", "poster"):
            value = values.get(name)
            if value is not None and not value.startswith("#"):
                self.outside.append("%s %s=%r" % (tag, name, value))
        if tag == "td" and "data-producer" in values:
            self.cells.append(values)

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        self.text.append(data)


def read_page(markup):
    reader = PageReader()
    reader.feed(markup)
    reader.close()
    return reader


def cell_key(cell):
    return "%s>%s/%s" % (cell["producer"], cell["consumer"], cell["device"])


def as_number(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def check_grid(page, report):
    """The page's cells against the report's matrix.cells: a difference, or None."""
    expected = {}
    for cell in report["matrix"]["cells"]:
        expected[cell_key(cell)] = (cell["worst"], int(cell["cases"]), int(cell["counts"]["pass"]))
    seen = set()
    for attrs in page.cells:
        cell = {name: attrs.get("data-" + name) for name in ("producer", "consumer", "device")}
        if None in cell.values():
            return "a cell lacks data-consumer or data-device: %r" % attrs
        key = cell_key(cell)
        if key in seen:
            return "cell %s is on the page twice" % key
        seen.add(key)
        shown = (attrs.get("data-worst"), as_number(attrs.get("data-cases")), as_number(attrs.get("data-pass")))
        if shown[0] == "none":
            if key in expected:
                return "cell %s is 'none' (not run) on the page but in the report: %r" % (key, expected[key])
            continue
        if key not in expected:
            return "cell %s is on the page (%r) but not in the report" % (key, shown)
        if shown != expected[key]:
            return "cell %s: worst, cases, pass %r on the page, %r in the report" % (key, shown, expected[key])
    missing = sorted(set(expected) - seen)
    if missing:
        return "cell %s of the report is not on the page" % missing[0]
    return None


def check_inert(page, source):
    """Nothing a message held ran or came to be: a difference, or None."""
    if page.owned:
        return "an element <%s> has data-owned: markup of a message ran" % page.owned[0]
    if page.title != source.title:
        return "the title is %r, the page's own is %r" % (page.title, source.title)
    if page.scripts:
        return "the DOM holds %d <script> element(s)" % page.scripts
    if CSP not in page.csp:
        return "no Content-Security-Policy %r (found %r)" % (CSP, page.csp)
    if page.outside:
        return "the page names a resource outside it: %s" % page.outside[0]
    return None


def as_parsed(message):
    """A message as an HTML parser gives its text back: line breaks made
    line feeds, and the control characters the writer wrote as '?'."""
    message = message.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(r"[\x00-\x08\x0b-\x1f]", "?", message)


def check_messages(page, report):
    """Every message with '<' in the page's text: a difference, or None;
    and how many were looked for."""
    text = "".join(page.text)
    messages = {case.get("case", {}).get("message") or "" for case in report.get("cases", [])}
    marked_up = sorted(m for m in messages if "<" in m)
    for message in marked_up:
        if as_parsed(message) not in text:
            return "the message %r is not in the page's text" % message[:120], len(marked_up)
    return None, len(marked_up)


def main(argv):
    if len(argv) != 3:
        print("usage: matrix_page_check.py PAGE.html REPORT.json", file=sys.stderr)
        return 2
    page_path, report_path = argv[1], argv[2]
    chromium = find_chromium()
    if chromium is None:
        print("skipped: no chromium")
        return SKIP
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    with open(page_path, encoding="utf-8") as f:
        source = read_page(f.read())
    try:
        page = read_page(dump_dom(chromium, page_path))
    except RuntimeError as e:
        print("FAIL chromium: %s" % e)
        return 1

    grid = check_grid(page, report)
    not_run = sum(1 for cell in page.cells if cell.get("data-worst") == "none")
    inert = check_inert(page, source)
    messages, n_messages = check_messages(page, report)
    results = [
        ("grid", grid, "the report's %d cells, and %d pair(s) not run" % (len(report["matrix"]["cells"]), not_run)),
        ("inert", inert, "no data-owned, title %r, no <script>, CSP, nothing outside" % page.title),
        ("messages", messages, "%d message(s) with '<' shown as text" % n_messages),
    ]
    first = None
    for name, difference, fine in results:
        print("%s %s: %s" % ("ok  " if difference is None else "FAIL", name, fine if difference is None else difference))
        if difference is not None and first is None:
            first = "%s: %s" % (name, difference)
    if first is not None:
        print("first difference: " + first)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
