"""Access to the games as data: the TOML tables and rules texts in ``seeds/``."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any


@functools.cache
def table(game: str) -> dict[str, Any]:
    """``seeds/<game>.toml``, parsed once."""
    return tomllib.loads(resources.files("seeds").joinpath(f"{game}.toml").read_text("utf-8"))


def rules_text(game: str, lang: str = "en") -> str:
    """The project's rules text for ``game`` in ``lang``: ``seeds/rules/<game>.md`` in English,
    ``seeds/rules/<game>.<lang>.md`` otherwise. FileNotFoundError if there is none."""
    name = f"{game}.md" if lang == "en" else f"{game}.{lang}.md"
    return resources.files("seeds").joinpath("rules", name).read_text("utf-8")
