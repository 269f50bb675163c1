"""Classes named as ``"module:Name"`` and imported only when asked for (a game's screen, words
or describer: a client that shows one game never imports the others')."""

from __future__ import annotations

import importlib
from typing import Any


def load(target: str) -> Any:
    """The object ``target`` (``"package.module:Name"``) names, its module imported now."""
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)
