"""hexnet: the rules. Pure, deterministic game engines and the bots' policies.

Nothing in this package does I/O or imports `protocol`, `host` or `client`.
"""

__version__ = "0.1.0"
