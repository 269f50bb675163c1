"""Bots for Hexenhammer. They see only the view."""

from __future__ import annotations

from hexnet.bots import choose_random

POLICIES = {"random": choose_random, "heuristic": choose_random}
