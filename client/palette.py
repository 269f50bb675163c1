"""The client's colours, and what each one means — never said by colour alone.

Every colour that carries meaning is a *role* here (the part of a suspicion bar below the
stake's floor, the part near the top, an active dominance token, a chat line, a warning…), and
every role has a textual mark that says the same without colour (``▒``, ``▓``, ``●``, ``»``,
``!``, a label such as ``Pyre``…): the screens draw the mark and colour it. Three looks:

- ``okabe-ito`` (the default): the Okabe–Ito palette, told apart by people with every common
  kind of colour blindness (Okabe & Ito, *Color Universal Design*, 2008);
- ``contrast``: a high-contrast look on black for low vision (bright colours, no dimming);
- ``mono``: no colour at all — bold, reverse video and dim instead (``NO_COLOR``).

The Textual themes of the same names (:data:`THEMES`, made in :mod:`client.app`) colour the
chrome alike. :func:`set_look` chooses the look for the process (the app does it at start, and
again when the player switches, F3).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style

# Okabe–Ito: https://jfly.uni-koeln.de/color/ (the eight colours of Color Universal Design)
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"

LOOKS = ("okabe-ito", "contrast", "mono")


@dataclass(frozen=True)
class Role:
    """A meaning told by colour: the mark that tells it without colour, and its style in each
    look."""

    meaning: str
    marks: tuple[str, ...]
    okabe_ito: str
    contrast: str
    mono: str


ROLES = {
    "floor": Role("suspicion up to the stake's floor", ("▒",), ORANGE, YELLOW, ""),
    "rise": Role("suspicion above the floor", ("█",), f"bold {YELLOW}", "bold #FFFFFF", "bold"),
    "danger": Role("suspicion 3 or less from the top", ("▓",), f"bold {VERMILLION}",
                   "bold #FF9B7A", "bold reverse"),
    "rest": Role("the rest of the track", ("·",), "dim", "#B0B0B0", "dim"),
    "token_on": Role("an active dominance token", ("●",), f"bold {BLUISH_GREEN}",
                     f"bold {SKY_BLUE}", "bold"),
    "token_off": Role("an inactive dominance token", ("○",), "dim", "#B0B0B0", "dim"),
    "pyre": Role("citizens on the pyre", ("Pyre",), VERMILLION, "bold #FF9B7A", "bold"),
    "chat": Role("a chat line", ("»", "☾"), f"bold {SKY_BLUE}", f"bold {SKY_BLUE}", "bold"),
    "warning": Role("a warning from the client", ("!",), f"bold {VERMILLION}", "bold #FF9B7A",
                    "bold reverse"),
    "news": Role("news from the client", ("✓",), "bold", "bold #FFFFFF", "bold"),
}

_look = "okabe-ito"


def set_look(look: str) -> None:
    """Colour every role as ``look`` says from now on (ValueError for an unknown look)."""
    global _look
    if look not in LOOKS:
        raise ValueError(f"unknown look {look!r}; hexnet has {', '.join(LOOKS)}")
    _look = look


def look() -> str:
    """The look in use."""
    return _look


def style(role: str) -> Style:
    """The rich style of ``role`` in the current look, tagged with the role (``meta``: what
    a test of the screens reads to find every span that carries a meaning)."""
    found = ROLES[role]
    spec = {"okabe-ito": found.okabe_ito, "contrast": found.contrast, "mono": found.mono}[_look]
    return Style.parse(spec or "none") + Style(meta={"role": role})


@dataclass(frozen=True)
class ThemeColours:
    """A Textual theme's colours (:class:`textual.theme.Theme` is made from them)."""

    name: str
    primary: str
    secondary: str
    accent: str
    warning: str
    error: str
    success: str
    foreground: str
    background: str
    text_alpha: float = 0.95


THEMES = {
    "okabe-ito": ThemeColours("hexnet", primary=BLUE, secondary=SKY_BLUE, accent=ORANGE,
                              warning=YELLOW, error=VERMILLION, success=BLUISH_GREEN,
                              foreground="#E6E6E6", background="#121212"),
    "contrast": ThemeColours("hexnet-contrast", primary=SKY_BLUE, secondary="#FFFFFF",
                             accent=YELLOW, warning=YELLOW, error="#FF9B7A",
                             success=SKY_BLUE, foreground="#FFFFFF", background="#000000",
                             text_alpha=1.0),
}
