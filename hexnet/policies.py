"""Bot policies by name: the built-in ones of each game, or ``MODULE:FUNCTION`` from the user's
own Python code; and the lazy view a policy is shown in-process.

A policy is ``choose(view, legal, rng) -> action``: ``view`` is what the seat may know (the
engine's ``view`` for that seat, nothing more), ``legal`` the seat's legal actions now, ``rng`` a
``random.Random`` to draw from. It returns one action (normally one of ``legal``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from hexnet.games import get_policy

Policy = Callable[[Mapping[str, Any], list[dict[str, Any]], random.Random], Any]


class PolicyError(ValueError):
    """A policy that cannot be loaded (a sentence for the user)."""


def is_builtin(spec: str) -> bool:
    """Whether ``spec`` names a built-in policy (``random``, ``heuristic``, …)."""
    return ":" not in spec


def load_policy(game: str, spec: str) -> Policy:
    """``spec`` is a built-in policy's name, or ``MODULE:FUNCTION``: a module importable from
    the current directory or the Python path (``mybots.fang:choose``), or a file
    (``./mybot.py:choose``)."""
    if is_builtin(spec):
        try:
            return get_policy(game, spec)
        except KeyError as exc:
            raise PolicyError(exc.args[0]) from None
    module_name, _, func = spec.rpartition(":")
    if not module_name or not func:
        raise PolicyError(f"{spec!r} is not MODULE:FUNCTION")
    module = _import(module_name, spec)
    choose = getattr(module, func, None)
    if not callable(choose):
        raise PolicyError(f"{module_name} has no function {func!r}")
    return choose


def _import(module_name: str, spec: str) -> Any:
    if module_name.endswith(".py") or os.sep in module_name:
        path = Path(module_name)
        if not path.is_file():
            raise PolicyError(f"no file {module_name} for the policy {spec!r}")
        # one module per file (two files named mybot.py in different folders stay apart)
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
        name = f"hexnet_user_policy_{path.stem}_{digest}"
        if name in sys.modules:
            return sys.modules[name]
        loader = importlib.util.spec_from_file_location(name, path)
        if loader is None or loader.loader is None:
            raise PolicyError(f"cannot load {module_name} as Python")
        module = importlib.util.module_from_spec(loader)
        sys.modules[name] = module
        try:
            loader.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[name]
            raise PolicyError(f"{module_name} failed to load: {type(exc).__name__}: {exc}"
                              ) from exc
        return module
    # As ``python -m`` would: the current directory first, so ``mybot:choose`` finds mybot.py.
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise PolicyError(f"no Python module {module_name!r} (looked in the current "
                              "directory and the Python path)") from None
        raise PolicyError(f"{module_name} failed to load: {exc}") from exc
    except Exception as exc:
        raise PolicyError(f"{module_name} failed to load: {type(exc).__name__}: {exc}"
                          ) from exc


class LazyView(Mapping[str, Any]):
    """A seat's view that is built on first read: a policy that never looks at it (the random
    one) costs no view. It reads like the view's dict (``view["seat"]``, ``view.get``, ``in``,
    iteration, ``dict(view)``), and only while the policy is choosing: :meth:`close` after the
    choice, so that a view kept for later cannot show a state it was not made for."""

    __slots__ = ("_build", "_view")

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build: Callable[[], dict[str, Any]] | None = build
        self._view: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._view is None:
            if self._build is None:
                raise RuntimeError("a view can be read only while its policy chooses")
            self._view = self._build()
        return self._view

    def close(self) -> None:
        """The choice is made: a view not built by now is never built."""
        self._build = None

    @property
    def built(self) -> bool:
        """Whether the policy read the view."""
        return self._view is not None

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __contains__(self, key: object) -> bool:
        return key in self._get()

    def get(self, key: str, default: Any = None) -> Any:
        return self._get().get(key, default)

    def copy(self) -> dict[str, Any]:
        """A plain dict of the view (as ``dict.copy`` gives)."""
        return dict(self._get())
