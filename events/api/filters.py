"""The filter backend of the list routes: django-filter's, bound to the validated parameters."""

from django_filters.rest_framework import DjangoFilterBackend


class ListFilterBackend(DjangoFilterBackend):
    """django-filter's DRF backend, with two differences that keep the contract's errors and
    validate each value once: the FilterSet is the view's `get_filterset_class()` (the app's, or
    the one a site names in EVENTS["FILTERSETS"]), and its data are the typed values the route's
    parameters (generated from that FilterSet) already validated, defaults included, with the
    names the request sent.
    """

    def get_filterset_class(self, view, queryset=None):
        filterset_class = view.get_filterset_class()
        model = filterset_class._meta.model
        if model is not None and queryset is not None and not issubclass(queryset.model, model):
            raise TypeError(f"{filterset_class.__name__} filters {model.__name__}, not {queryset.model.__name__}.")
        return filterset_class

    def get_filterset_kwargs(self, request, queryset, view):
        return {"data": view.filter_data(), "sent": view.sent, "queryset": queryset, "request": request}
