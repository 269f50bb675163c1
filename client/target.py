"""A host as a person types it (``host[:port]``) and a host key as a person compares it."""

from __future__ import annotations

from hexnet.i18n import _

DEFAULT_PORT = 7878


def parse_target(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host[:port]`` (IPv6 in brackets) as (host, port); ValueError with a sentence if not."""
    text = text.strip()
    if not text:
        raise ValueError(_("Type a host, e.g. 192.168.1.20:7878."))
    if text.startswith("["):
        host, _sep, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(_("The host name is missing."))
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(_("{port} is not a port number.").format(port=repr(port_text)))
    return host, int(port_text)


def short_fingerprint(fp: str) -> str:
    """The first groups of the host key's human fingerprint (as the host's screen shows it)."""
    from protocol.tls import short_fingerprint as short

    try:
        return short(fp)
    except ValueError:
        return fp[:14] or "?"
