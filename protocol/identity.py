"""The client's persistent Ed25519 identity: seats are bound to its public key."""

from __future__ import annotations

from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from protocol.paths import tighten_file, write_private

IDENTITY_FILE = "identity.pem"


def load_or_create_identity(config_dir: Path, filename: str = IDENTITY_FILE
                            ) -> Ed25519PrivateKey:
    """The identity key in ``config_dir/filename``, made (mode 0600) on first use; a key file
    found with a looser mode is tightened to 0600."""
    path = config_dir / filename
    if path.exists():
        tighten_file(path)  # a key found readable by others is made the owner's alone
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path} does not hold an Ed25519 key")
        return key
    key = Ed25519PrivateKey.generate()
    write_private(path, key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return key


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    """The 32-byte raw public key."""
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw)


def verify(public: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public``'s Ed25519 signature of ``data``."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True
