"""Write ``static/css/pygments.css``: the code colours of the pages, Pygments' ``default``
style in light mode and ``github-dark`` in dark mode (both keep every token at 4.5:1 or
more against their own background, which axe-core checks in tests/e2e).

    python scripts/pygments_css.py            # write the file
    python scripts/pygments_css.py --check    # exit 1 if the file is not what it would write
"""

from __future__ import annotations

import sys
from pathlib import Path

from pygments.formatters import HtmlFormatter

TARGET = Path(__file__).resolve().parents[1] / "static" / "css" / "pygments.css"
# ``pre > code.hl``: what umf_render writes for a fenced block; as specific as the pages'
# own ``.md pre code`` rule, and later, so the style's background wins over it.
STYLES = {"pre > code.hl": "default", "[data-theme=dark] pre > code.hl": "github-dark"}


def stylesheet() -> str:
    """The CSS, one block per theme, for the classes ``umf_render`` writes (prefix hl-)."""
    parts = ["/* Written by scripts/pygments_css.py: do not edit by hand. */"]
    for selector, style in STYLES.items():
        formatter = HtmlFormatter(style=style, classprefix="hl-")
        rules = formatter.get_style_defs(selector).splitlines()
        # The line-number rules are for tables of lines, which the pages never write.
        parts += [rule for rule in rules if "linenos" not in rule and not rule.startswith("pre {")]
    return "\n".join(parts) + "\n"


def main() -> int:
    css = stylesheet()
    if "--check" in sys.argv:
        return 0 if TARGET.read_text() == css else 1
    TARGET.write_text(css)
    return 0


if __name__ == "__main__":
    sys.exit(main())
