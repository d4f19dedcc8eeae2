"""The app's PNG icons, drawn from their SVG in Chromium (``python build.py icons``)."""

from __future__ import annotations

import base64
from pathlib import Path

from .steps import WEB


def draw_icons() -> None:
    """Render web/icons/icon.svg (and its maskable variant) to the PNG sizes the manifest names."""
    from playwright.sync_api import sync_playwright

    icons = WEB / "icons"
    jobs = [
        ("icon.svg", "icon-192.png", 192),
        ("icon.svg", "icon-512.png", 512),
        ("icon-maskable.svg", "icon-maskable-512.png", 512),
    ]
    executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page()
        for svg, png, size in jobs:
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(
                "<style>html,body{margin:0;background:transparent}</style>"
                f"<img src='data:image/svg+xml;base64,"
                f"{base64.b64encode((icons / svg).read_bytes()).decode()}' "
                f"width='{size}' height='{size}' style='display:block'>"
            )
            page.screenshot(path=str(icons / png), omit_background=True)
            print(f"web/icons/{png}")
        browser.close()
