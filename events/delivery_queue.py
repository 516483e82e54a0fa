"""The task engine's database app under a name editors understand, in the calendar's three languages.

django-tasks-db keeps webhook deliveries' tasks and shows them in the admin as "Tasks Database
Backend" / "Task Results", strings it does not mark for translation. Listing this configuration in
INSTALLED_APPS instead of "django_tasks_db" (docs/install.md) names the app for what it holds here,
translated, and places it after the calendar in the admin's index in every language.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_tasks_db.apps import TasksAppConfig

# The task app marks these with gettext but ships no Chinese catalog: ours carries them.
TASK_APP_LABELS = (
    gettext_noop("Task Result"),
    gettext_noop("Task Results"),
    gettext_noop("status"),
    gettext_noop("enqueued at"),
    gettext_noop("started at"),
    gettext_noop("finished at"),
    gettext_noop("priority"),
    gettext_noop("task path"),
    gettext_noop("queue name"),
    gettext_noop("backend name"),
    gettext_noop("run after"),
    gettext_noop("return value"),
    gettext_noop("traceback"),
)


class DeliveryQueueConfig(TasksAppConfig):
    # "Webhook delivery queue" sorts after "Events calendar" in English, and its Chinese names
    # (网络钩子… / 網路鉤子…) after 活动日历 / 活動行事曆, since the admin sorts apps by name.
    verbose_name = _("Webhook delivery queue")
