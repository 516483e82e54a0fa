"""What HTTP Basic credentials are checked against, cheaply: application passwords and login passwords.

An application password is 24 random letters and digits (about 143 bits), so it needs no slow hash:
WordPress 6.8 stores it with a fast keyed hash, and so do we (HMAC-SHA256 keyed from SECRET_KEY).
Checking one costs microseconds, where Django's login password hasher costs about half a second by
design. A login password sent with every request would pay that each time; one that was checked once
is remembered for a short time by this process under a keyed digest of the user, the stored
password hash and the password (never as plain text), so changing the password ends the memory at once.
"""

import datetime as dt
import logging
import re
import secrets
import string
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.html import strip_tags

from ..conf import events_settings
from ..exceptions import DuplicateApplicationName, EmptyApplicationName
from ..memory import memory
from ..models import ApplicationPassword

APP_PASSWORD_LENGTH = 24
APP_PASSWORD_ALPHABET = string.ascii_letters + string.digits
# WordPress strips everything but letters and digits from a presented application password, so the
# spaces (or dashes) of the grouped form it is shown in may be kept or dropped by the client.
_SEPARATORS = re.compile(r"[^A-Za-z0-9]")
_APP_PASSWORD_SALT = "events.application-password"
_LOGIN_MEMORY_SALT = "events.remembered-login-password"
# WordPress records an application password's use at most once a day, so a read stays a read.
USAGE_RECORD_INTERVAL = dt.timedelta(days=1)
# Revocations end a credential's use: whoever looks into an account's access finds them here.
logger = logging.getLogger("events.credentials")


# --- application passwords -----------------------------------------------------------------------


def _secret_keys():
    # Digests made before a SECRET_KEY rotation still match while the old key is a fallback.
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def application_password_digest(secret, key=None):
    return salted_hmac(_APP_PASSWORD_SALT, secret, secret=key, algorithm="sha256").hexdigest()


def grouped(secret):
    """The form a new password is shown in: `abcd efgh ijkl mnop qrst uvwx`."""
    return " ".join(secret[start : start + 4] for start in range(0, len(secret), 4))


def presented_secret(password):
    """The letters and digits of a presented password, or None if it cannot be an application password."""
    secret = _SEPARATORS.sub("", password)
    return secret if len(secret) == APP_PASSWORD_LENGTH else None


def application_name(name):
    """The name as WordPress stores it, through sanitize_text_field: no tags, blanks collapsed and
    trimmed. Nothing left is refused (EmptyApplicationName)."""
    cleaned = " ".join(strip_tags(name or "").split())
    if not cleaned:
        raise EmptyApplicationName()
    return cleaned


@transaction.atomic
def issue_application_password(record):
    """Save the new `record` (its user, name and optional app_id set) with a fresh secret.

    Returns the secret in grouped form. It exists only in the return value and in the client's
    hands: whoever shows it must show it once.
    """
    record.name = application_name(record.name)
    user = record.user
    # Locking the user's row makes the duplicate-name check hold under concurrent requests.
    get_user_model()._default_manager.select_for_update().filter(pk=user.pk).first()
    if ApplicationPassword.objects.filter(user=user, name=record.name).exists():
        raise DuplicateApplicationName(record.name)
    secret = "".join(secrets.choice(APP_PASSWORD_ALPHABET) for _ in range(APP_PASSWORD_LENGTH))
    record.password_digest = application_password_digest(secret)
    record.save()
    return grouped(secret)


def rename_application_password(record, name):
    """Give `record` another name. Like WordPress, a rename is not checked against the user's other
    names; only creation is."""
    record.name = application_name(name)
    record.save(update_fields=["name"])
    return record


@transaction.atomic
def revoke_application_passwords(records):
    """Delete the application passwords of the queryset `records` for good: a request signed with
    one fails from the commit on. Each revocation is logged. Returns how many were revoked."""
    revoked = list(records.order_by().values_list("pk", "uuid", "user_id", "name"))
    _rows, by_model = ApplicationPassword.objects.filter(pk__in=[pk for pk, *_rest in revoked]).delete()
    for _pk, key, user_id, name in revoked:
        logger.info("Application password %s (%r) of user %s revoked.", key, name, user_id)
    return by_model.get(ApplicationPassword._meta.label, 0)


def matching_application_password(candidates, password):
    """The candidate application password `password` is, or None.

    Every candidate is compared against every key in constant time, so the time taken does not tell
    which candidate (or which part of a digest) came close.
    """
    secret = presented_secret(password)
    if secret is None:
        return None
    digests = [application_password_digest(secret, key) for key in _secret_keys()]
    found = None
    for candidate in candidates:
        for digest in digests:
            if constant_time_compare(candidate.password_digest, digest) and found is None:
                found = candidate
    return found


def record_application_password_use(record, ip_address, now=None):
    """Note when and from where `record` was last used, at most once a day (one UPDATE, no read)."""
    now = now or timezone.now()
    if record.last_used is not None and record.last_used > now - USAGE_RECORD_INTERVAL:
        return
    # The condition repeats the check in SQL, so concurrent requests write once between them.
    ApplicationPassword.objects.filter(pk=record.pk).filter(
        Q(last_used__isnull=True) | Q(last_used__lte=now - USAGE_RECORD_INTERVAL)
    ).update(last_used=now, last_ip=ip_address)
    record.last_used, record.last_ip = now, ip_address


# --- login passwords ----------------------------------------------------------------------------


def check_login_password(user, password, before_hashing=None):
    """Whether `password` is `user`'s login password; the slow hasher runs only when this process
    has not verified it within LOGIN_PASSWORD_MEMORY_SECONDS, after `before_hashing()` (which may
    refuse by raising: the login throttle).

    A verified password is remembered under the user, valid for a digest of the user, their stored
    password hash and the password: only the same password against the same stored hash is
    recalled, so a new password, or a rehash by Django, is a miss. Deactivation and role changes
    need nothing, since every request reads the user and their rights afresh. Wrong passwords are
    never remembered, so each guess still pays the full hasher.
    """
    lifetime = events_settings.LOGIN_PASSWORD_MEMORY_SECONDS
    if lifetime > 0:
        # The memory compares digests with `==`, not in constant time: they are keyed from
        # SECRET_KEY, so how much of a guess's digest matches tells a guesser nothing.
        trusted_until = _login_passwords.recall(user.pk, _login_digest(user, password))
        if trusted_until is not None and trusted_until > time.monotonic():
            return True
    if before_hashing is not None:
        before_hashing()
    if not user.check_password(password):
        return False
    if lifetime > 0:
        # After check_password, which may have rehashed (and saved) the password.
        _login_passwords.remember(user.pk, _login_digest(user, password), time.monotonic() + lifetime)
    return True


def _login_digest(user, password):
    value = f"{user.pk}\x00{user.password}\x00{password}"
    return salted_hmac(_LOGIN_MEMORY_SALT, value, algorithm="sha256").digest()


# User ID → until when their login password is trusted, under the digest of what was verified:
# the 1,024 users who signed in most recently (per process: a digest that verifies a password
# should not leave the process that verified it).
_login_passwords = memory("login-passwords", max_entries=1024)
