"""Seeds a realistic calendar of N events straight through the ORM, in bulk batches.

Rows are built the way the API would store them (shared post IDs, wall-clock and UTC times from
events.services.schedule, organizer positions, category and tag links, translated titles), but
inserted with bulk_create so that 100,000 events take minutes rather than hours.
"""

import datetime as dt
import random
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone, translation

from events import pipeline
from events.models import (
    Attachment,
    Category,
    Event,
    EventOrganizer,
    Organizer,
    PostIdentity,
    PostKind,
    PostStatus,
    Tag,
    Taxonomy,
    Venue,
)
from events.services.schedule import set_event_times
from events.text import sanitize_title

BATCH_SIZE = 5000
AUTHOR_USERNAME = "bench-author"

# (English, 简体, 繁體) names: roots with their children, so the category tree has two levels.
CATEGORY_TREE = [
    (
        ("Music", "音乐", "音樂"),
        [
            ("Jazz", "爵士乐", "爵士樂"),
            ("Rock", "摇滚", "搖滾"),
            ("Classical", "古典音乐", "古典音樂"),
            ("Folk", "民谣", "民謠"),
        ],
    ),
    (
        ("Arts", "艺术", "藝術"),
        [("Theatre", "戏剧", "戲劇"), ("Dance", "舞蹈", "舞蹈"), ("Exhibitions", "展览", "展覽")],
    ),
    (
        ("Sports", "体育", "體育"),
        [("Running", "跑步", "跑步"), ("Cycling", "骑行", "騎行"), ("Football", "足球", "足球")],
    ),
    (("Food & Drink", "美食", "美食"), [("Wine Tasting", "品酒", "品酒"), ("Cooking Classes", "烹饪课", "烹飪課")]),
    (("Family", "家庭", "家庭"), [("Kids", "儿童", "兒童"), ("Storytelling", "故事会", "故事會")]),
    (
        ("Education", "教育", "教育"),
        [
            ("Workshops", "工作坊", "工作坊"),
            ("Lectures", "讲座", "講座"),
            ("Language Exchange", "语言交流", "語言交流"),
        ],
    ),
    (("Technology", "科技", "科技"), [("Meetups", "聚会", "聚會"), ("Hackathons", "黑客马拉松", "黑客馬拉松")]),
    (("Outdoors", "户外", "戶外"), [("Hiking", "徒步", "徒步"), ("Gardening", "园艺", "園藝")]),
    (("Community", "社区", "社區"), []),
]

TAG_NAMES = [
    "free",
    "outdoor",
    "indoor",
    "family friendly",
    "accessible",
    "evening",
    "weekend",
    "beginner",
    "advanced",
    "live music",
    "online",
    "hybrid",
    "charity",
    "students",
    "seniors",
    "pets welcome",
    "food trucks",
    "wine",
    "craft beer",
    "vegan",
    "rsvp",
    "tickets at door",
    "sold out soon",
    "new",
    "annual",
    "festival",
    "workshop",
    "talk",
    "panel",
    "networking",
    "local artists",
    "international",
    "kids",
    "teens",
    "bilingual",
    "mandarin",
    "photography",
    "film",
    "poetry",
    "open mic",
]

# (city, state, province, country, zip, latitude, longitude, IANA zone of its events)
CITIES = [
    ("New York", "NY", "", "United States", "10001", 40.7128, -74.0060, "America/New_York"),
    ("Los Angeles", "CA", "", "United States", "90012", 34.0522, -118.2437, "America/Los_Angeles"),
    ("Rome", "", "Lazio", "Italy", "00184", 41.9028, 12.4964, "Europe/Rome"),
    ("London", "", "England", "United Kingdom", "WC2N 5DU", 51.5074, -0.1278, "Europe/London"),
    ("Shanghai", "", "Shanghai", "China", "200000", 31.2304, 121.4737, "Asia/Shanghai"),
    ("Taipei", "", "Taipei", "Taiwan", "100", 25.0330, 121.5654, "Asia/Taipei"),
]
VENUE_KINDS = ["Hall", "Theatre", "Park", "Gallery", "Club", "Library", "Arena", "Studio", "Museum", "Garden"]
ORGANIZER_NAMES = [
    "Friends of Music",
    "City Arts Council",
    "Riverside Runners",
    "Open Source Circle",
    "Green Thumbs",
    "Storytellers Guild",
    "Night Owls Collective",
    "Harbour Food Lovers",
    "Language Café",
    "Family Days",
]
ADJECTIVES = [
    ("Evening", "晚间", "晚間"),
    ("Morning", "早晨", "早晨"),
    ("Weekend", "周末", "週末"),
    ("Community", "社区", "社區"),
    ("Spring", "春季", "春季"),
    ("Open", "开放", "開放"),
    ("Grand", "盛大", "盛大"),
    ("Late-night", "深夜", "深夜"),
]
SENTENCES = [
    "Join us for an afternoon of discovery, conversation and good company.",
    "Doors open thirty minutes before the start; seating is first come, first served.",
    "Bring a friend — newcomers are always welcome and no experience is needed.",
    "Light refreshments will be served, with vegetarian options available.",
    "The venue is step-free and has an accessible restroom on the ground floor.",
    "Tickets can be bought online or at the door while they last.",
    "Our hosts will share stories, tips and a few surprises along the way.",
    "Please check the weather forecast: the event moves indoors if it rains.",
]
ZH_SENTENCES = ["欢迎大家参加，现场提供茶点。", "请提前三十分钟入场。", "新朋友随时欢迎，无需经验。"]
COSTS = [[], ["Free"], ["$10"], ["$25"], ["15"], ["0", "20"], ["10", "35"], ["Donation"]]
# Weighted like a live calendar: mostly published, a few of every other state.
STATUS_WEIGHTS = [
    (PostStatus.PUBLISH, 86),
    (PostStatus.FUTURE, 2),
    (PostStatus.DRAFT, 5),
    (PostStatus.PENDING, 2),
    (PostStatus.PRIVATE, 3),
    (PostStatus.TRASH, 2),
]
IMAGE_SIZES = {"thumbnail": (150, 150), "medium": (300, 200), "large": (1024, 683)}


@dataclass
class SeedSummary:
    events: int
    venues: int
    organizers: int
    categories: int
    tags: int
    images: int
    organizer_links: int
    term_links: int


def counts_for(n_events):
    """Venues, organizers and images in proportion to the events, as a city calendar has them."""
    return {
        "venues": max(3, n_events // 50),
        "organizers": max(3, n_events // 40),
        "images": max(2, min(200, n_events // 100)),
    }


def calendar_tables():
    """Every table of the events app (link tables included), each once."""
    tables = []
    for model in apps.get_app_config("events").get_models(include_auto_created=True):
        table = model._meta.db_table
        if not model._meta.proxy and model._meta.managed and table not in tables:
            tables.append(table)
    return tables


def wipe_calendar():
    """Empty the calendar's tables (not the users nor the roles) and restart their ID sequences."""
    statements = connection.ops.sql_flush(no_style(), calendar_tables(), reset_sequences=True, allow_cascade=True)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Inside a transaction that just inserted rows, PostgreSQL refuses TRUNCATE while their
            # deferred foreign-key checks are pending; running the checks now clears them.
            connection.check_constraints()
        for statement in statements:
            cursor.execute(statement)


def vacuum_analyze():
    """After a bulk load on PostgreSQL: planner statistics, and the visibility map that index-only
    scans (list counts) need; autovacuum would get there later on a live site."""
    with connection.cursor() as cursor:
        for table in calendar_tables():
            cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(table)}")


def autovacuum_now():
    """PostgreSQL: what autovacuum's default rule would do now to each calendar table: VACUUM one
    with more dead rows than 50 plus a fifth of the table, ANALYZE one with more rows changed since
    its last ANALYZE than 50 plus a tenth. A live site's autovacuum does this on its own; the
    benchmark machine may run without it, and then the priming reads (which fill the rendering
    store after seeding) leave the planner taking the store for the few rows it last counted, and
    the write rows (a series of 730 per request, deleted at the end) leave dead rows that every
    later run would wade through. Returns the statements run."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.relname, s.n_dead_tup > 50 + 0.2 * GREATEST(c.reltuples, 0), "
            "s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0) "
            "FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = ANY(%s)",
            [calendar_tables()],
        )
        statements = [
            f"{'VACUUM (ANALYZE)' if vacuum else 'ANALYZE'} {connection.ops.quote_name(table)}"
            for table, vacuum, analyze in cursor.fetchall()
            if vacuum or analyze
        ]
        for statement in statements:
            cursor.execute(statement)
    return statements


def _chunks(total, size):
    for start in range(0, total, size):
        yield start, min(size, total - start)


def _translated(field, names, index, every_hans=3, every_hant=5):
    """`field_en` always; the Chinese variants for a share of the rows, as real sites have them."""
    english, hans, hant = names
    values = {field: english, f"{field}_en": english}
    if index % every_hans == 0:
        values[f"{field}_zh_hans"] = hans
    if index % every_hant == 0:
        values[f"{field}_zh_hant"] = hant
    return values


def _bench_author():
    author, _ = get_user_model().objects.get_or_create(username=AUTHOR_USERNAME, defaults={"is_staff": True})
    return author


def _seed_terms():
    categories, children = [], []
    for index, (root_names, child_names) in enumerate(CATEGORY_TREE):
        root = Category(
            taxonomy=Taxonomy.CATEGORY,
            slug=sanitize_title(root_names[0]),
            **_translated("name", root_names, index, 1, 2),
        )
        categories.append(root)
        for child_index, names in enumerate(child_names):
            children.append(
                (
                    root,
                    Category(
                        taxonomy=Taxonomy.CATEGORY,
                        slug=sanitize_title(names[0]),
                        **_translated("name", names, child_index, 2, 3),
                        description=f"{names[0]} events around town.",
                    ),
                )
            )
    Category.objects.bulk_create(categories)
    for root, child in children:
        child.parent = root
    Category.objects.bulk_create([child for _, child in children])
    tags = [Tag(taxonomy=Taxonomy.TAG, slug=sanitize_title(name), name=name, name_en=name) for name in TAG_NAMES]
    Tag.objects.bulk_create(tags)
    # Events are filed under the most specific category, as editors do.
    childless_roots = [root for root, (_, child_names) in zip(categories, CATEGORY_TREE) if not child_names]
    leaves = [child for _, child in children] + childless_roots
    return categories + [child for _, child in children], leaves, tags


def _seed_images(count, author, now):
    ids = PostIdentity.allocate(PostKind.ATTACHMENT, count)
    images = []
    for n, image_id in enumerate(ids, start=1):
        folder = f"events/{now:%Y}/{now:%m}"
        sizes = {
            name: {
                "file": f"{folder}/bench-photo-{n}-{w}x{h}.jpg",
                "width": w,
                "height": h,
                "mime-type": "image/jpeg",
                "filesize": 40 * w,
            }
            for name, (w, h) in IMAGE_SIZES.items()
        }
        images.append(
            Attachment(
                id=image_id,
                file=f"{folder}/bench-photo-{n}.jpg",
                title=f"Bench photo {n}",
                width=1600,
                height=1067,
                filesize=250_000 + n,
                mime_type="image/jpeg",
                sizes=sizes,
                author=author,
                date=now - dt.timedelta(days=n),
            )
        )
    Attachment.objects.bulk_create(images, batch_size=BATCH_SIZE)
    return images


def _seed_venues(count, author, images, rng, now):
    ids = PostIdentity.allocate(PostKind.VENUE, count)
    venues, zones = [], {}
    for n, venue_id in enumerate(ids, start=1):
        city, state, province, country, zip_code, lat, lng, zone = CITIES[n % len(CITIES)]
        title = f"{city} {VENUE_KINDS[n % len(VENUE_KINDS)]} {n}"
        located = rng.random() < 0.7
        zones[venue_id] = zone
        venues.append(
            Venue(
                id=venue_id,
                title=title,
                title_en=title,
                slug=sanitize_title(title),
                status=PostStatus.PUBLISH,
                description=f"<p>{rng.choice(SENTENCES)}</p>",
                author=author,
                date=now - dt.timedelta(days=rng.randrange(1, 900)),
                address=f"{rng.randrange(1, 400)} Main Street",
                city=city,
                state=state,
                province=province,
                country=country,
                zip=zip_code,
                stateprovince=Venue.derive_stateprovince(state, province, country),
                phone=f"+1 555 {n:07d}"[:16],
                website=f"https://venue{n}.example.org",
                geo_lat=round(lat + rng.uniform(-0.05, 0.05), 6) if located else None,
                geo_lng=round(lng + rng.uniform(-0.05, 0.05), 6) if located else None,
                image=rng.choice(images) if rng.random() < 0.3 else None,
            )
        )
    Venue.objects.bulk_create(venues, batch_size=BATCH_SIZE)
    return venues, zones


def _seed_organizers(count, author, images, rng, now):
    ids = PostIdentity.allocate(PostKind.ORGANIZER, count)
    organizers = []
    for n, organizer_id in enumerate(ids, start=1):
        title = f"{ORGANIZER_NAMES[n % len(ORGANIZER_NAMES)]} {n}"
        organizers.append(
            Organizer(
                id=organizer_id,
                title=title,
                title_en=title,
                slug=sanitize_title(title),
                status=PostStatus.PUBLISH,
                description=f"<p>{rng.choice(SENTENCES)}</p>",
                author=author,
                date=now - dt.timedelta(days=rng.randrange(1, 900)),
                phone=f"+44 20 {n:07d}",
                website=f"https://organizer{n}.example.org",
                email=f"contact{n}@example.org",
                image=rng.choice(images) if rng.random() < 0.2 else None,
            )
        )
    Organizer.objects.bulk_create(organizers, batch_size=BATCH_SIZE)
    return organizers


def _event_times(rng, today):
    """Start/end wall clock and the all-day flag: mostly evening hours, some all-day and multi-day."""
    # From 90 days back to ~20 months ahead, inside the list's default 24-month window.
    day = today + dt.timedelta(days=rng.randrange(-90, 600))
    kind = rng.random()
    if kind < 0.05:
        start = dt.datetime.combine(day, dt.time(0, 0))
        return start, start + dt.timedelta(days=rng.randrange(0, 3)), True
    start = dt.datetime.combine(day, dt.time(rng.choice([9, 10, 11, 14, 17, 18, 19, 20]), rng.choice([0, 15, 30, 45])))
    if kind < 0.10:
        return start, start + dt.timedelta(days=rng.randrange(1, 4), hours=2), False
    return start, start + dt.timedelta(minutes=rng.choice([60, 90, 120, 180, 240])), False


def _build_event(index, event_id, rng, now, author, venues, venue_zones, images, leaves):
    status = rng.choices([s for s, _ in STATUS_WEIGHTS], weights=[w for _, w in STATUS_WEIGHTS])[0]
    category = rng.choice(leaves)
    en, hans, hant = ADJECTIVES[index % len(ADJECTIVES)]
    names = (
        f"{en} {category.name_en} #{index + 1}",
        f"{hans}{category.name_zh_hans or category.name_en} #{index + 1}",
        f"{hant}{category.name_zh_hant or category.name_en} #{index + 1}",
    )
    # Events keep their venue's local zone, so lists mix zones as a multi-city calendar does.
    venue = rng.choice(venues) if rng.random() < 0.9 else None
    zone = venue_zones[venue.id] if venue else "UTC"
    paragraphs = rng.randrange(1, 4)
    description = "".join(f"<p>{' '.join(rng.sample(SENTENCES, 2))}</p>\n" for _ in range(paragraphs))
    cost = rng.choice(COSTS)
    event = Event(
        id=event_id,
        status=status,
        author=author,
        venue=venue,
        **_translated("title", names, index),
        description=description,
        description_en=description,
        excerpt=rng.choice(SENTENCES) if rng.random() < 0.3 else "",
        slug="" if status in (PostStatus.DRAFT, PostStatus.PENDING) else sanitize_title(names[0]),
        date=now + dt.timedelta(days=rng.randrange(1, 30))
        if status == PostStatus.FUTURE
        else now - dt.timedelta(days=rng.randrange(1, 365)),
        cost=cost,
        currency_symbol="$" if cost and rng.random() < 0.5 else "",
        currency_position="prefix" if cost else "",
        currency_code="USD" if cost else "",
        website=f"https://example.org/events/{index + 1}" if rng.random() < 0.2 else None,
        featured=rng.random() < 0.05,
        sticky=rng.random() < 0.01,
        hide_from_listings=rng.random() < 0.02,
        image=rng.choice(images) if rng.random() < 0.3 else None,
    )
    if index % 3 == 0:
        event.description_zh_hans = f"<p>{rng.choice(ZH_SENTENCES)}</p>"
    if status == PostStatus.TRASH:
        event.status_before_trash, event.slug_before_trash = PostStatus.PUBLISH, event.slug
        event.slug = f"{event.slug}__trashed"
    start, end, all_day = _event_times(rng, now.date())
    set_event_times(event, start, end, zone, all_day)
    return event, category


def seed_calendar(n_events=10_000, *, seed=20240601, now=None, batch_size=BATCH_SIZE, progress=None):
    """Create `n_events` events with their venues, organizers, categories, tags and images.

    Deterministic for a given `seed`; expects an empty calendar (see wipe_calendar()).
    """
    rng = random.Random(seed)
    now = now or timezone.now().replace(microsecond=0)
    sizes = counts_for(n_events)
    organizer_links = term_links = 0
    # One unit of work: the events are written in bulk and recorded nowhere (the bench renders the
    # store and seeds the change log after), and every term is recounted once at its end.
    with translation.override("en"), pipeline.unit() as work:
        work.recount_all_terms()
        if connection.vendor == "postgresql":
            # The site's statement time-out guards requests; a bulk load of a million events runs
            # statements (the term recount) that take longer, by design.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL statement_timeout = 0")
        author = _bench_author()
        categories, leaves, tags = _seed_terms()
        images = _seed_images(sizes["images"], author, now)
        venues, venue_zones = _seed_venues(sizes["venues"], author, images, rng, now)
        organizers = _seed_organizers(sizes["organizers"], author, images, rng, now)
        term_model = Event.terms.through
        for start, size in _chunks(n_events, batch_size):
            ids = PostIdentity.allocate(PostKind.EVENT, size)
            events, links, terms = [], [], []
            for offset, event_id in enumerate(ids):
                event, category = _build_event(
                    start + offset, event_id, rng, now, author, venues, venue_zones, images, leaves
                )
                events.append(event)
                chosen = rng.choices([0, 1, 2], weights=[10, 70, 20])[0]
                for position, organizer in enumerate(rng.sample(organizers, chosen)):
                    links.append(EventOrganizer(event_id=event_id, organizer_id=organizer.id, position=position))
                event_terms = {category.id}
                if rng.random() < 0.3:
                    event_terms.add(rng.choice(leaves).id)
                event_terms.update(tag.id for tag in rng.sample(tags, rng.randrange(0, 4)))
                terms.extend(term_model(event_id=event_id, term_id=term_id) for term_id in event_terms)
            Event.objects.bulk_create(events, batch_size=batch_size)
            EventOrganizer.objects.bulk_create(links, batch_size=batch_size)
            term_model.objects.bulk_create(terms, batch_size=batch_size)
            organizer_links += len(links)
            term_links += len(terms)
            if progress:
                progress(start + size, n_events)
    return SeedSummary(
        events=n_events,
        venues=len(venues),
        organizers=len(organizers),
        categories=len(categories),
        tags=len(tags),
        images=len(images),
        organizer_links=organizer_links,
        term_links=term_links,
    )


# Occurrences per seeded series: a weekly class over about five months.
SERIES_LENGTH = 20
SERIES_ADMIN_USERNAME = "bench-series-admin"


def series_count(n_events, share):
    """Series of SERIES_LENGTH occurrences that make `share` of `n_events` events."""
    return int(n_events * share) // SERIES_LENGTH


def seed_series(count, progress=None):
    """Make `count` seeded events series of SERIES_LENGTH weekly occurrences, through the service a
    client's `recurrence` goes through (services.events.update_event), one series per transaction.

    The events chosen are published, listed, timed and spread over the whole calendar, so the
    occurrences mix into every list the way a real calendar's weekly classes do.
    """
    from events.services.events import update_event

    admin, _ = get_user_model().objects.get_or_create(
        username=SERIES_ADMIN_USERNAME, defaults={"is_staff": True, "is_superuser": True}
    )
    candidates = list(
        Event.objects.filter(
            status=PostStatus.PUBLISH, hide_from_listings=False, password="", all_day=False, series__isnull=True
        )
        .order_by("id")
        .values_list("id", flat=True)
    )
    if count > len(candidates):
        raise ValueError(f"only {len(candidates)} events can start a series, {count} asked")
    step = len(candidates) // max(count, 1)
    rule = {"rules": [f"FREQ=WEEKLY;COUNT={SERIES_LENGTH}"]}
    with translation.override("en"):
        for done, event_id in enumerate(candidates[::step][:count], start=1):
            update_event(Event.objects.get(pk=event_id), admin, {"recurrence": rule})
            if progress:
                progress(done, count)


def seed_change_log(now=None):
    """One `created` entry per seeded record, in ID order, as the log of a calendar whose records
    were all written through the service would hold (bulk seeding records none of them). It
    replaces what the seeding's unit of work logged itself (its terms' recounted counts)."""
    from events.models import ChangeAction, ChangeEntry, ChangeKind

    now = now or timezone.now()
    kinds = [
        (ChangeKind.VENUE, Venue.objects.all()),
        (ChangeKind.ORGANIZER, Organizer.objects.all()),
        (ChangeKind.CATEGORY, Category.objects.all()),
        (ChangeKind.TAG, Tag.objects.all()),
        (ChangeKind.EVENT, Event.objects.all()),
    ]
    with transaction.atomic():
        ChangeEntry.objects.all().delete()
        for kind, records in kinds:
            ids = records.order_by("id").values_list("id", flat=True).iterator(chunk_size=BATCH_SIZE)
            batch = []
            for record_id in ids:
                batch.append(ChangeEntry(kind=kind, record_id=record_id, action=ChangeAction.CREATED, time=now))
                if len(batch) == BATCH_SIZE:
                    ChangeEntry.objects.bulk_create(batch)
                    batch = []
            ChangeEntry.objects.bulk_create(batch)
