"""The epoch rows are read under: FORMAT_VERSION and the settings that shape a record.

FORMAT_VERSION is bumped by hand whenever a renderer's output or a row's columns change;
tests/test_store_format.py fails until it is (see docs/architecture-store.md).
"""
import hashlib

from django.conf import settings
from django.core.signals import setting_changed

from ..conf import events_settings

# Bump whenever a serializer's output or a row's columns change, so rows of the old shape are never served.
FORMAT_VERSION = "2"

_epoch = None


def current_epoch():
    global _epoch
    if _epoch is None:
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
        _epoch = hashlib.sha256(repr(shaping).encode()).hexdigest()[:16]
    return _epoch


def _forget_epoch(**kwargs):
    global _epoch
    _epoch = None


setting_changed.connect(_forget_epoch, dispatch_uid="events.store.epoch")


def languages():
    """Every language a record is stored in."""
    return [code for code, _name in settings.LANGUAGES]
