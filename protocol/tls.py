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

from protocol.paths import tighten_file, write_private

KEY_FILE = "host_key.pem"
CERT_FILE = "host_cert.pem"
WEB_CERT_FILE = "web_cert.pem"
WEB_CERT_DAYS = 365


def _self_signed(key: ec.EllipticCurvePrivateKey, days: int,
                 extensions: list[tuple[x509.ExtensionType, bool]] | None = None
                 ) -> x509.Certificate:
    """A certificate of ``key`` signed by itself ("hexnet host"), valid from yesterday for
    ``days``, with ``extensions`` (each with whether it is critical)."""
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "hexnet host")])
    now = datetime.datetime.now(datetime.UTC)
    builder = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(days=1))
               .not_valid_after(now + datetime.timedelta(days=days)))
    for extension, critical in extensions or []:
        builder = builder.add_extension(extension, critical=critical)
    return builder.sign(key, hashes.SHA256())


def ensure_host_cert(config_dir: Path) -> tuple[Path, Path]:
    """The host's (cert, key) paths in ``config_dir``, made once (ECDSA P-256, 20 years)."""
    cert_path, key_path = config_dir / CERT_FILE, config_dir / KEY_FILE
    if cert_path.exists() and key_path.exists():
        tighten_file(key_path)  # a key found readable by others is made the owner's alone
        return cert_path, key_path
    key = ec.generate_private_key(ec.SECP256R1())
    cert = _self_signed(key, 365 * 20)
    write_private(key_path, key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def ensure_web_cert(config_dir: Path, addresses: list[str], names: list[str]) -> Path:
    """A certificate for the web door (``config_dir/web_cert.pem``, remade on every call): the
    host's own key (so the fingerprint of its public key is the host's), self-signed, naming
    ``addresses`` (IP) and ``names`` (DNS) as a browser expects of an HTTPS server, for a year."""
    import ipaddress

    cert_path, key_path = ensure_host_cert(config_dir)
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    alt: list[x509.GeneralName] = []
    for address in dict.fromkeys(addresses):
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(address)))
        except ValueError:
            continue
    alt += [x509.DNSName(n) for n in dict.fromkeys(names) if n]
    cert = _self_signed(key, WEB_CERT_DAYS, [
        (x509.SubjectAlternativeName(alt), False),
        (x509.BasicConstraints(ca=False, path_length=None), True),
        (x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]), False)])
    path = config_dir / WEB_CERT_FILE
    write_private(path, cert.public_bytes(serialization.Encoding.PEM))
    return path


def spki_base64(fp_hex: str) -> str:
    """The fingerprint in base64: what Chromium's ``--ignore-certificate-errors-spki-list`` and
    HPKP-style pins name."""
    return base64.b64encode(bytes.fromhex(fp_hex)).decode()


def colon_fingerprint(fp_hex: str, nbytes: int = 32) -> str:
    """``3A:7F:…``: the first ``nbytes`` of the fingerprint as a browser's certificate viewer
    writes its "Public key SHA-256"."""
    return ":".join(fp_hex[i:i + 2].upper() for i in range(0, 2 * nbytes, 2))


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
