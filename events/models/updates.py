"""The calendar's querysets record their bulk updates in the write's unit of work (events.pipeline)."""

from django.db import models


class AnnouncedUpdates(models.QuerySet):
    """A queryset whose `update()` records the rows it changed, and the fields it wrote, in the
    unit of work running on its database (`pipeline.current()`): an update sends no model signal."""

    def update(self, **kwargs):
        # Imported here: the pipeline's receivers import the models.
        from ..pipeline import current

        ids = list(self.order_by().values_list("pk", flat=True))
        count = super().update(**kwargs)
        current(self.db).changed(self.model, ids, fields=list(kwargs))
        return count
