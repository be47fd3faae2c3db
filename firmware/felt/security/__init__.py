# Felt security (firmware, pure apart from the files boot.py hands it): HMAC-SHA256, per-device
# keys, signed firmware manifests, floor-command challenges, the hash-chained audit log and
# hole-card secrecy. The threat model is hardware/security.md. Errors below are FeltErrors.
from felt.errors import FeltError


class SecurityError(FeltError):
    """A security check refused something; the message says what and why."""


class KeyFileError(SecurityError):
    """No key, or a malformed key file (the key itself is never part of the message)."""


class ManifestError(SecurityError):
    """A firmware tree or its manifest is unsigned, altered, signed with another key or older."""


class AuthError(SecurityError):
    """A floor command failed authentication: wrong key, replayed, expired or altered."""


class AuditError(SecurityError):
    """The audit log's hash chain or a record's MAC does not verify."""
