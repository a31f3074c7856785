"""The close codes are defined once (holdem/realtime/close_codes.py); the browser's mirror and the
protocol page say the same numbers."""

import re
from pathlib import Path

from holdem.realtime.close_codes import ALL, FINAL

ROOT = Path(__file__).resolve().parents[2]


def test_the_browser_mirror_has_the_final_codes_with_their_python_values():
    source = (ROOT / "static/js/close-codes.js").read_text()
    mirrored = {
        name: int(value) for name, value in re.findall(r"export const CLOSE_(\w+) = (\d+);", source)
    }
    assert mirrored == FINAL


def test_the_protocol_page_explains_every_close_code():
    page = (ROOT / "docs/protocol.md").read_text()
    listed = {int(code) for code in re.findall(r"^\| (4\d{3}) \|", page, flags=re.MULTILINE)}
    assert listed == set(ALL.values())
