"""The wire: frames, message schemas, TLS, fingerprints, room-code auth, identities.

Imports nothing of ``host`` or ``client``.
"""

PROTOCOL_VERSION = 2
