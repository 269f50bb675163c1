"""TLS 1.3 only: the host's persistent key and self-signed certificate, fingerprints, contexts.

Fingerprint = SHA-256 of the host's public key (SubjectPublicKeyInfo DER), as 64 hex digits
(known_hosts, mDNS TXT, ``welcome``); its human form is the first 16 bytes in base32, grouped by
four (``ABCD-EFGH-…``). Clients do not use a CA: they read the peer certificate after the
handshake and compare its fingerprint with their pin.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from protocol.paths import write_private

KEY_FILE = "host_key.pem"
CERT_FILE = "host_cert.pem"


def ensure_host_cert(config_dir: Path) -> tuple[Path, Path]:
    """The host's (cert, key) paths in ``config_dir``, made once (ECDSA P-256, 20 years)."""
    cert_path, key_path = config_dir / CERT_FILE, config_dir / KEY_FILE
    if cert_path.exists() and key_path.exists():
        return cert_path, key_path
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "hexnet host")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=365 * 20))
            .sign(key, hashes.SHA256()))
    write_private(key_path, key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def fingerprint_of_cert(cert_der: bytes) -> str:
    """The hex fingerprint (SHA-256 of the SPKI DER) of a DER certificate."""
    cert = x509.load_der_x509_certificate(cert_der)
    spki = cert.public_key().public_bytes(serialization.Encoding.DER,
                                          serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(spki).hexdigest()


def fingerprint_of_pem(cert_path: Path) -> str:
    """The hex fingerprint of a PEM certificate file."""
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    return fingerprint_of_cert(cert.public_bytes(serialization.Encoding.DER))


def human_fingerprint(fp_hex: str, groups: int = 7) -> str:
    """``ABCD-EFGH-…``: the first 16 bytes in base32, ``groups`` groups of four (7 = all 26)."""
    text = base64.b32encode(bytes.fromhex(fp_hex)[:16]).decode().rstrip("=")
    return "-".join(text[i:i + 4] for i in range(0, len(text), 4)[:groups])


def short_fingerprint(fp_hex: str) -> str:
    """The first three groups of the human form, for one-line listings."""
    return human_fingerprint(fp_hex, groups=3)


def fingerprint_matches(fp_hex: str, pin: str) -> bool:
    """Whether ``pin`` (full hex, or the full human form with or without dashes) names
    ``fp_hex``. A prefix shorter than the full human form never matches."""
    pin = pin.strip()
    cleaned = pin.replace(":", "").lower()
    if len(cleaned) == 64 and all(c in "0123456789abcdef" for c in cleaned):
        return cleaned == fp_hex.lower()
    human = human_fingerprint(fp_hex).replace("-", "")
    return pin.replace("-", "").replace(" ", "").upper() == human


def server_context(cert_path: Path, key_path: Path) -> ssl.SSLContext:
    """The host's context: TLS 1.3 only, its own cert, no client certs."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.maximum_version = ssl.TLSVersion.TLSv1_3
    ctx.load_cert_chain(cert_path, key_path)
    return ctx


def client_context() -> ssl.SSLContext:
    """The client's context: TLS 1.3 only; no CA — the caller checks the fingerprint pin on
    ``ssl_object.getpeercert(binary_form=True)`` before sending anything."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.maximum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx
