"""Every format package has the one shape of issue 18: ``__init__.py`` (registration and
capabilities), ``_detect.py``, ``_parse.py``, ``_render.py``, ``_rules.py`` (the target's
structural rules), ``_constants.py`` (its names and defaults), and ``_parse_<topic>.py`` /
``_render_<topic>.py`` where a file would pass 300 lines. Every format package has it:
there is no list of exceptions."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import providers.formats

FORMATS_DIR = Path(providers.formats.__file__).parent

REQUIRED = ("__init__.py", "_detect.py", "_parse.py", "_render.py", "_rules.py")
ALLOWED = re.compile(
    r"(__init__|_detect|_parse|_render|_rules|_constants|_(parse|render)_[a-z0-9_]+)\.py"
)


def format_packages() -> list[str]:
    """The format packages (the kit and the family modules start with ``_``)."""
    return sorted(
        module.name
        for module in pkgutil.iter_modules([str(FORMATS_DIR)])
        if module.ispkg and not module.name.startswith("_")
    )


def misshapen(package: str) -> list[str]:
    """What keeps ``package`` from the shape: files outside it, required files missing."""
    directory = FORMATS_DIR / package
    names = {path.name for path in directory.iterdir() if path.suffix == ".py"}
    outside = sorted(name for name in names if not ALLOWED.fullmatch(name))
    missing = sorted(f"missing {name}" for name in REQUIRED if name not in names)
    subpackages = sorted(f"{p.name}/" for p in directory.iterdir() if (p / "__init__.py").exists())
    return outside + missing + subpackages


@pytest.mark.parametrize("package", format_packages())
def test_every_format_package_has_the_one_shape(package: str) -> None:
    assert misshapen(package) == []


def test_every_registered_format_is_a_package() -> None:
    # 19 formats, each a package of that shape (the umf format included: ``unified``).
    assert len(format_packages()) == len(providers.formats.all_formats()) == 19


@pytest.mark.parametrize("package", format_packages())
def test_a_package_is_registered_by_its_shape(package: str) -> None:
    # register_package: the id, detector and distinctive fields come from the package's
    # _constants and _detect, its parse and render from _parse and _render (an archive
    # builds its own, which the package exports).
    module = importlib.import_module(f"providers.formats.{package}")
    detecting = importlib.import_module(f"providers.formats.{package}._detect")
    constants = importlib.import_module(f"providers.formats.{package}._constants")
    registered = providers.formats.get(constants.FORMAT_ID)
    assert module.FORMAT is registered
    assert registered.detect is detecting.detect is module.detect
    assert registered.distinctive is getattr(detecting, "DISTINCTIVE", None)
    if not hasattr(module, "ARCHIVE"):
        parsing = importlib.import_module(f"providers.formats.{package}._parse")
        rendering = importlib.import_module(f"providers.formats.{package}._render")
        assert (module.parse, module.render) == (parsing.parse, rendering.render)


def test_the_shape_refuses_the_old_stage_names() -> None:
    assert ALLOWED.fullmatch("_render_media.py")
    assert ALLOWED.fullmatch("_parse_blocks.py")
    assert not ALLOWED.fullmatch("_normalize.py")
    assert not ALLOWED.fullmatch("_drafts.py")
    assert not ALLOWED.fullmatch("_reader.py")


PRIVATE_IMPORT = re.compile(
    r"^\s*(?:from|import)\s+providers\.formats\.([a-z]\w*)\._", re.MULTILINE
)


def private_imports_of_others(package: str) -> list[str]:
    """The other format packages whose private modules ``package`` imports."""
    found = set()
    for path in (FORMATS_DIR / package).rglob("*.py"):
        found |= set(PRIVATE_IMPORT.findall(path.read_text()))
    return sorted(found - {package})


@pytest.mark.parametrize("package", format_packages())
def test_no_format_imports_another_formats_private_module(package: str) -> None:
    # What two formats share lives in the kit or a family module, not in one of them.
    assert private_imports_of_others(package) == []


def test_the_private_import_check_sees_one() -> None:
    text = "from providers.formats.anthropic._constants import X\nimport providers.formats._kit"
    assert PRIVATE_IMPORT.findall(text) == ["anthropic"]
