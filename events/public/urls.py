"""Mount inside `i18n_patterns` at the site root: the public paths are the ones the API's `url` fields name."""

from django.urls import path, re_path

from . import views

app_name = "events_public"

urlpatterns = [
    path("", views.UpcomingEvents.as_view(), name="home"),
    path("events/", views.UpcomingEvents.as_view(), name="events"),
    path("events/month/", views.MonthGrid.as_view(), name="month"),
    path("events/featured/", views.FeaturedEvents.as_view(), name="featured"),
    re_path(r"^events/(?P<day>\d{4}-\d{2}-\d{2})/$", views.DayList.as_view(), name="day"),
    re_path(r"^events/category/(?P<path>(?:[^/]+/)*[^/]+)/$", views.CategoryArchive.as_view(), name="category"),
    re_path(r"^tag/(?P<slug>[^/]+)/$", views.TagArchive.as_view(), name="tag"),
    re_path(r"^event/(?P<slug>[^/]+)/$", views.EventPage.as_view(), name="event"),
    re_path(r"^event/(?P<slug>[^/]+)/ical/$", views.EventCalendarFile.as_view(), name="event_ical"),
    re_path(r"^venue/(?P<slug>[^/]+)/$", views.VenuePage.as_view(), name="venue"),
    re_path(r"^organizer/(?P<slug>[^/]+)/$", views.OrganizerPage.as_view(), name="organizer"),
]
