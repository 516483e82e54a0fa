"""The epoch rows are read under: FORMAT_VERSION and the settings that shape a record
(docs/architecture-store.md, "The epoch and its test")."""

import hashlib

from django.conf import settings

from ..conf import events_settings, settings_version
from ..memory import memory

# Bump whenever a serializer's output or a row's columns change, so rows of the old shape are never served.
FORMAT_VERSION = "2"


def current_epoch():
    shaped_by = settings_version()
    epoch = _epochs.recall("epoch", shaped_by)
    if epoch is None:
        shaping = [
            FORMAT_VERSION,
            settings.TIME_ZONE,
            settings.MEDIA_URL,
            languages(),
            getattr(settings, "MODELTRANSLATION_FALLBACK_LANGUAGES", None),
            events_settings.namespace,
            events_settings.DEFAULT_CURRENCY_SYMBOL,
            events_settings.DEFAULT_CURRENCY_CODE,
            str(settings.STORAGES.get("default", {}).get("BACKEND", "")),
        ]
        epoch = hashlib.sha256(repr(shaping).encode()).hexdigest()[:16]
        _epochs.remember("epoch", shaped_by, epoch)
    return epoch


# What each memory holds, under what key and why it cannot answer stale: docs/architecture-memories.md.
_epochs = memory("store-epoch", max_entries=1)


def languages():
    """Every language a record is stored in."""
    return [code for code, _name in settings.LANGUAGES]
