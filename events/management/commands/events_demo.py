"""Load a small demo calendar in English, Simplified and Traditional Chinese, and an `admin` login to explore it."""

import datetime as dt
import secrets
from io import BytesIO, StringIO

from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone
from PIL import Image, ImageDraw, ImageOps

from events import pipeline
from events.cost import parse_cost_input
from events.models import Attachment, Category, Event, EventOrganizer, Organizer, PostStatus, Tag, Venue
from events.roles import ADMINISTRATOR
from events.services.images import generate_sizes
from events.services.schedule import set_event_times
from events.services.slugs import assign_post_slug, assign_term_slug
from events.services.terms import sanitize_term_name

from .events_clear import clear_calendar

PACIFIC, TAIPEI, SHANGHAI = "America/Los_Angeles", "Asia/Taipei", "Asia/Shanghai"

# Venues: key, (en, zh-hans, zh-hant) name, address fields, coordinates or None, zone, description.
VENUES = [
    dict(
        key="bayview",
        title=("Bayview Concert Hall", "湾景音乐厅", "灣景音樂廳"),
        address="1200 Market Street",
        city="San Francisco",
        state="CA",
        zip="94102",
        country="United States",
        phone="+1 415 555 0132",
        website="https://bayview-hall.example.org",
        geo=(37.7793, -122.4193),
        zone=PACIFIC,
        description=(
            "A 900-seat hall with an intimate upper foyer for jazz and chamber music.",
            "拥有 900 个座位的音乐厅，二楼小厅适合爵士乐与室内乐演出。",
            "擁有 900 個座位的音樂廳，二樓小廳適合爵士樂與室內樂演出。",
        ),
    ),
    dict(
        key="library",
        title=("Mission Library Reading Room", "米慎图书馆阅览室", "米慎圖書館閱覽室"),
        address="300 Bartlett Street",
        city="San Francisco",
        state="CA",
        zip="94110",
        country="United States",
        phone="+1 415 555 0178",
        website="https://mission-library.example.org",
        geo=None,
        zone=PACIFIC,
        description=(
            "The branch library's reading room, step-free, with projector and laptops to borrow.",
            "分馆阅览室，无障碍通行，配有投影仪和可借用的笔记本电脑。",
            "分館閱覽室，無障礙通行，備有投影機和可借用的筆電。",
        ),
    ),
    dict(
        key="bandshell",
        title=("Golden Gate Park Bandshell", "金门公园露天音乐台", "金門公園露天音樂台"),
        address="55 Music Concourse Drive",
        city="San Francisco",
        state="CA",
        zip="94118",
        country="United States",
        phone="",
        website="",
        geo=(37.7702, -122.4662),
        zone=PACIFIC,
        description=(
            "An open-air stage facing a tree-lined lawn.",
            "面向林荫草坪的露天舞台。",
            "面向林蔭草坪的露天舞台。",
        ),
    ),
    dict(
        key="riverside",
        title=("Riverside Community Center", "河畔社区中心", "河畔社區中心"),
        address="45 Elm Street",
        city="Oakland",
        state="CA",
        zip="94607",
        country="United States",
        phone="+1 510 555 0190",
        website="",
        geo=None,
        zone=PACIFIC,
        description=(
            "A neighbourhood center with a hall, a rooftop terrace and a parking lot used for markets.",
            "社区活动中心，设有礼堂、屋顶露台和可举办集市的停车场。",
            "社區活動中心，設有禮堂、屋頂露台和可舉辦市集的停車場。",
        ),
    ),
    dict(
        key="daan",
        title=("Daan Forest Park Amphitheater", "大安森林公园露天音乐台", "大安森林公園露天音樂台"),
        address="No. 1, Section 2, Xinsheng South Road",
        city="Taipei",
        province="Daan District",
        zip="106",
        country="Taiwan",
        phone="",
        website="",
        geo=(25.0300, 121.5359),
        zone=TAIPEI,
        description=(
            "The park's open-air amphitheater, next to the MRT station.",
            "公园内的露天音乐台，紧邻地铁站。",
            "公園內的露天音樂台，緊鄰捷運站。",
        ),
    ),
    dict(
        key="kitchen",
        title=("Dadaocheng Community Kitchen", "大稻埕社区厨房", "大稻埕社區廚房"),
        address="No. 32, Dihua Street, Section 1",
        city="Taipei",
        province="Datong District",
        zip="103",
        country="Taiwan",
        phone="+886 2 5555 0123",
        website="",
        geo=None,
        zone=TAIPEI,
        description=(
            "A shared kitchen with twelve cooking stations in a restored shophouse.",
            "位于修复老街屋中的共享厨房，设有十二个烹饪台。",
            "位於修復老街屋中的共享廚房，設有十二個料理台。",
        ),
    ),
    dict(
        key="westbund",
        title=("West Bund Art Center", "西岸艺术中心", "西岸藝術中心"),
        address="2555 Longteng Avenue",
        city="Shanghai",
        province="Shanghai",
        zip="200232",
        country="China",
        phone="+86 21 5555 0166",
        website="https://westbund-art.example.org",
        geo=(31.1700, 121.4600),
        zone=SHANGHAI,
        description=(
            "Galleries and studios in a former aircraft hangar on the Huangpu riverfront.",
            "由黄浦江畔旧飞机库改建的展厅与工作室。",
            "由黃浦江畔舊飛機庫改建的展廳與工作室。",
        ),
    ),
]

ORGANIZERS = [
    dict(
        key="arts",
        title=("Bayview Arts Council", "湾景艺术协会", "灣景藝術協會"),
        email="hello@bayview-arts.example.org",
        phone="+1 415 555 0101",
        website="https://bayview-arts.example.org",
        description=(
            "Volunteers presenting concerts and talks since 1998.",
            "自 1998 年起由志愿者组织音乐会和讲座。",
            "自 1998 年起由志工籌辦音樂會和講座。",
        ),
    ),
    dict(
        key="makers",
        title=("Mission Makers Collective", "米慎创客社", "米慎創客社"),
        email="team@missionmakers.example.org",
        phone="",
        website="https://missionmakers.example.org",
        description=(
            "Free and low-cost technology classes for the neighbourhood.",
            "为社区居民提供免费或低价的科技课程。",
            "為社區居民提供免費或平價的科技課程。",
        ),
    ),
    dict(
        key="runners",
        title=("Golden Gate Runners Club", "金门跑步俱乐部", "金門路跑社"),
        email="club@ggrunners.example.org",
        phone="+1 415 555 0147",
        website="",
        description=(
            "Group runs for every pace, every week.",
            "每周组织适合各种配速的集体跑。",
            "每週舉辦適合各種配速的團體路跑。",
        ),
    ),
    dict(
        key="film",
        title=("Taipei Indie Film Society", "台北独立电影协会", "臺北獨立電影協會"),
        email="info@tpindiefilm.example.org",
        phone="+886 2 5555 0188",
        website="https://tpindiefilm.example.org",
        description=(
            "Screenings and conversations with independent filmmakers.",
            "举办独立电影放映与创作者对谈。",
            "舉辦獨立電影放映與創作者座談。",
        ),
    ),
    dict(
        key="lab",
        title=("West Bund Creative Lab", "西岸创意实验室", "西岸創意實驗室"),
        email="lab@westbund-art.example.org",
        phone="",
        website="https://westbund-art.example.org/lab",
        description=(
            "Workshops in photography, printmaking and data design.",
            "开设摄影、版画和数据设计工作坊。",
            "開設攝影、版畫和資料設計工作坊。",
        ),
    ),
    dict(
        key="volunteers",
        title=("Riverside Volunteers", "河畔志愿者联盟", "河畔志工聯盟"),
        email="join@riverside-volunteers.example.org",
        phone="+1 510 555 0111",
        website="",
        description=(
            "Neighbours organising clean-ups, festivals and food drives.",
            "邻里自发组织清洁活动、节庆和食物募集。",
            "鄰里自發籌辦清潔活動、節慶和食物募集。",
        ),
    ),
]

# Categories: key, (en, zh-hans, zh-hant), parent key.
CATEGORIES = [
    ("music", ("Music", "音乐", "音樂"), None),
    ("jazz", ("Jazz", "爵士乐", "爵士樂"), "music"),
    ("classical", ("Classical", "古典音乐", "古典音樂"), "music"),
    ("arts", ("Arts & Culture", "艺术与文化", "藝術與文化"), None),
    ("exhibitions", ("Exhibitions", "展览", "展覽"), "arts"),
    ("film", ("Film", "电影", "電影"), "arts"),
    ("learning", ("Learning", "学习", "學習"), None),
    ("workshops", ("Workshops", "工作坊", "工作坊"), "learning"),
    ("talks", ("Talks", "讲座", "講座"), "learning"),
    ("community", ("Community", "社区", "社區"), None),
    ("sports", ("Sports & Outdoors", "运动与户外", "運動與戶外"), None),
    ("food", ("Food & Drink", "餐饮", "餐飲"), None),
]

TAGS = [
    ("free", ("free", "免费", "免費")),
    ("family", ("family-friendly", "亲子", "親子")),
    ("outdoor", ("outdoor", "户外", "戶外")),
    ("online", ("online", "在线", "線上")),
    ("beginners", ("beginners", "入门", "入門")),
    ("volunteers", ("volunteering", "志愿服务", "志工服務")),
]

# Events: `day` counts from today; `start` is the venue's wall clock; `hours` or `until` (day, "HH:MM") ends it.
EVENTS = [
    dict(
        title=("Jazz on the Bay", "湾畔爵士之夜", "灣畔爵士之夜"),
        description=(
            "The Bayview Quartet plays standards and new compositions in the hall's upper foyer. Doors open 30 minutes before the first set.",
            "湾景四重奏在音乐厅二楼小厅演奏经典曲目与全新创作。首场演出前 30 分钟开放入场。",
            "灣景四重奏在音樂廳二樓小廳演奏經典曲目與全新創作。首場演出前 30 分鐘開放入場。",
        ),
        venue="bayview",
        organizers=["arts"],
        categories=["jazz"],
        tags=[],
        day=3,
        start="19:30",
        hours=2.5,
        cost=["$25", "$40"],
        featured=True,
        poster=0,
    ),
    dict(
        title=("Symphony in the Park", "公园交响音乐会", "公園交響音樂會"),
        description=(
            "The Bay Youth Orchestra performs Dvořák and Gershwin on the lawn. Bring a blanket; picnics welcome.",
            "湾区青少年管弦乐团在草坪上演奏德沃夏克与格什温的作品。欢迎自带野餐垫和野餐。",
            "灣區青少年管弦樂團在草坪上演奏德弗札克與蓋希文的作品。歡迎自備野餐墊和野餐。",
        ),
        venue="bandshell",
        organizers=["arts"],
        categories=["classical"],
        tags=["free", "family", "outdoor"],
        day=10,
        start="14:00",
        hours=2,
        cost=["0"],
        featured=True,
        poster=1,
    ),
    dict(
        key="python",
        title=(
            "Python for Beginners: Session 1 — First Steps",
            "Python 编程入门：第一课——初识 Python",
            "Python 程式設計入門：第一堂——認識 Python",
        ),
        description=(
            "A hands-on introduction to programming with Python for complete beginners. Bring a laptop; we help with installation in this first session.",
            "面向零基础学员的 Python 编程实践入门课。请自带笔记本电脑，第一节课会协助大家安装软件。",
            "為零基礎學員設計的 Python 程式設計實作入門課。請自備筆電，第一堂課會協助大家安裝軟體。",
        ),
        venue="library",
        organizers=["makers"],
        categories=["workshops"],
        tags=["beginners"],
        day=7,
        start="18:30",
        hours=2,
        cost=["$60"],
    ),
    dict(
        title=(
            "Python for Beginners: Session 2 — Lists and Loops",
            "Python 编程入门：第二课——列表与循环",
            "Python 程式設計入門：第二堂——串列與迴圈",
        ),
        description=(
            "Storing many values and repeating work: lists, for loops and while loops.",
            "学习如何存放多个值并重复执行任务：列表、for 循环与 while 循环。",
            "學習如何存放多個值並重複執行工作：串列、for 迴圈與 while 迴圈。",
        ),
        venue="library",
        organizers=["makers"],
        categories=["workshops"],
        tags=["beginners"],
        day=14,
        start="18:30",
        hours=2,
        cost=["$60"],
        parent="python",
    ),
    dict(
        title=(
            "Python for Beginners: Session 3 — Working with Files",
            "Python 编程入门：第三课——文件操作",
            "Python 程式設計入門：第三堂——檔案處理",
        ),
        description=(
            "Reading and writing text and CSV files, and a small project to take home.",
            "读写文本文件和 CSV 文件，并完成一个可以带回家的小项目。",
            "讀寫文字檔與 CSV 檔案，並完成一個可以帶回家的小專案。",
        ),
        venue="library",
        organizers=["makers"],
        categories=["workshops"],
        tags=["beginners"],
        day=21,
        start="18:30",
        hours=2,
        cost=["$60"],
        parent="python",
    ),
    dict(
        title=("Farmers Market & Food Trucks", "农夫集市与美食餐车", "農夫市集與美食餐車"),
        description=(
            "Local growers, bakers and food trucks fill the parking lot. Bring your own bags.",
            "本地农户、面包师和美食餐车齐聚停车场。请自带购物袋。",
            "在地小農、麵包師傅和美食餐車齊聚停車場。請自備購物袋。",
        ),
        venue="riverside",
        organizers=["volunteers"],
        categories=["food"],
        tags=["free", "family", "outdoor"],
        day=5,
        start="09:00",
        hours=5,
        cost=[],
    ),
    dict(
        title=("Yoga in the Park", "公园瑜伽", "公園瑜珈"),
        description=(
            "An easy-going class for all levels on the lawn. Mats available to borrow.",
            "适合所有程度的轻松课程，在草坪上进行。现场可借用瑜伽垫。",
            "適合各種程度的輕鬆課程，在草坪上進行。現場可借用瑜珈墊。",
        ),
        venue="bandshell",
        organizers=[],
        categories=["sports"],
        tags=["free", "outdoor", "beginners"],
        day=4,
        start="08:00",
        hours=1,
        cost=["0"],
    ),
    dict(
        title=("Golden Gate 10K Fun Run", "金门 10 公里欢乐跑", "金門 10 公里歡樂路跑"),
        description=(
            "A flat, scenic course through the park, finishing at the bandshell. Registration includes a T-shirt and a timing chip.",
            "沿公园风景线的平坦赛道，终点设在露天音乐台。报名费含 T 恤和计时芯片。",
            "沿公園景觀的平坦路線，終點設在露天音樂台。報名費含 T 恤和計時晶片。",
        ),
        venue="bandshell",
        organizers=["runners"],
        categories=["sports"],
        tags=["outdoor"],
        day=18,
        start="07:30",
        hours=3,
        cost=["$35"],
        featured=True,
        poster=2,
    ),
    dict(
        title=("Indie Film Night: Short Documentaries", "独立电影之夜：短纪录片", "獨立電影之夜：短紀錄片"),
        description=(
            "Five short documentaries by Taiwanese filmmakers, screened outdoors and followed by a Q&A with the directors.",
            "露天放映五部台湾导演创作的短纪录片，映后设导演问答环节。",
            "露天放映五部臺灣導演創作的短紀錄片，映後安排導演座談。",
        ),
        venue="daan",
        organizers=["film"],
        categories=["film"],
        tags=["free", "outdoor"],
        day=9,
        start="19:00",
        hours=2.5,
        cost=["0"],
    ),
    dict(
        title=("Night Market Food Walk", "夜市美食漫步", "夜市美食散步"),
        description=(
            "A guided walk through two neighbourhood night markets, tasting oyster omelette, pepper buns and bubble tea.",
            "由导览员带领逛两个街区夜市，品尝蚵仔煎、胡椒饼和珍珠奶茶。",
            "由導覽員帶領逛兩座在地夜市，品嚐蚵仔煎、胡椒餅和珍珠奶茶。",
        ),
        venue="daan",
        organizers=[],
        categories=["food"],
        tags=[],
        day=12,
        start="18:00",
        hours=3,
        cost=["NT$600"],
    ),
    dict(
        title=("Mobile Photography Workshop", "手机摄影工作坊", "手機攝影工作坊"),
        description=(
            "Composition, light and editing tips to get the most out of the camera in your pocket. Bring a charged phone.",
            "学习构图、用光与后期修图技巧，充分发挥手机相机的潜力。请带上充满电的手机。",
            "學習構圖、用光與後製修圖技巧，充分發揮手機相機的潛力。請帶著充飽電的手機。",
        ),
        venue="westbund",
        organizers=["lab"],
        categories=["workshops"],
        tags=["beginners"],
        day=16,
        start="10:00",
        hours=2.5,
        cost=["¥120"],
    ),
    dict(
        title=("Data Visualization Meetup", "数据可视化交流会", "資料視覺化交流會"),
        description=(
            "Three short talks on turning public data into clear charts, followed by informal networking.",
            "三场简短演讲，分享如何把公开数据做成清晰的图表，之后自由交流。",
            "三場簡短演講，分享如何將公開資料做成清楚的圖表，會後自由交流。",
        ),
        venue="westbund",
        organizers=["lab"],
        categories=["talks"],
        tags=["free"],
        day=11,
        start="19:00",
        hours=2,
        cost=["0"],
    ),
    dict(
        title=("Contemporary Ink: Exhibition Opening", "当代水墨展开幕", "當代水墨展開幕"),
        description=(
            "Opening reception for an exhibition of contemporary ink painting by twelve artists from Shanghai and Taipei.",
            "十二位来自上海和台北的艺术家当代水墨作品展开幕酒会。",
            "十二位來自上海與臺北的藝術家當代水墨作品展開幕酒會。",
        ),
        venue="westbund",
        organizers=["lab"],
        categories=["exhibitions"],
        tags=["free"],
        day=6,
        start="18:00",
        hours=2,
        cost=["0"],
        featured=True,
        poster=1,
    ),
    dict(
        title=("Contemporary Ink: Twelve Artists", "当代水墨：十二位艺术家", "當代水墨：十二位藝術家"),
        description=(
            "The exhibition is open daily; guided tours in Mandarin and English at weekends.",
            "展览每日开放；周末提供中英文导览。",
            "展覽每日開放；週末提供中英文導覽。",
        ),
        venue="westbund",
        organizers=["lab"],
        categories=["exhibitions"],
        tags=[],
        day=7,
        until=(35, "23:59"),
        all_day=True,
        cost=["¥50"],
    ),
    dict(
        title=("Volunteer Orientation", "志愿者入门说明会", "志工新手說明會"),
        description=(
            "New to volunteering with us? Meet the coordinators, hear about our programmes and sign up for your first shift.",
            "第一次参加我们的志愿服务？来认识协调员，了解各项活动并报名第一次值班。",
            "第一次參加我們的志工服務？來認識協調員，了解各項活動並報名第一次排班。",
        ),
        venue="riverside",
        organizers=["volunteers"],
        categories=["community"],
        tags=["volunteers", "free"],
        day=8,
        start="18:00",
        hours=1.5,
        cost=["0"],
    ),
    dict(
        title=("Neighbourhood Clean-up Day", "社区清洁日", "社區清潔日"),
        description=(
            "Gloves, bags and snacks provided. Meet at the main entrance.",
            "现场提供手套、垃圾袋和点心。请在正门集合。",
            "現場提供手套、垃圾袋和點心。請在正門集合。",
        ),
        venue="riverside",
        organizers=["volunteers"],
        categories=["community"],
        tags=["volunteers", "outdoor", "family"],
        day=20,
        start="09:00",
        hours=3,
        cost=["0"],
    ),
    dict(
        title=("Hackathon: Apps for the City", "城市应用黑客马拉松", "城市應用黑客松"),
        description=(
            "Two days to build tools that help residents with transit, recycling and library services. Teams of up to four; meals provided.",
            "用两天时间为市民打造实用工具：公共交通、垃圾回收、图书馆服务等。每队最多四人，提供餐食。",
            "用兩天時間為市民打造實用工具：大眾運輸、資源回收、圖書館服務等。每隊最多四人，提供餐點。",
        ),
        venue="library",
        organizers=["makers", "arts"],
        categories=["workshops"],
        tags=["free"],
        day=25,
        start="09:00",
        until=(26, "18:00"),
        cost=["0"],
        featured=True,
        poster=0,
    ),
    dict(
        title=("Storytime for Little Ones", "幼儿故事时间", "幼兒故事時間"),
        description=(
            "Picture books, songs and rhymes for children up to five and their grown-ups.",
            "为五岁以下儿童及家长准备的绘本、儿歌和童谣时间。",
            "為五歲以下兒童及家長準備的繪本、兒歌和童謠時間。",
        ),
        venue="library",
        organizers=[],
        categories=["community"],
        tags=["family", "free"],
        day=2,
        start="10:30",
        hours=0.75,
        cost=["0"],
    ),
    dict(
        title=("Author Talk: Writing the Bay", "作家讲座：书写湾区", "作家講座：書寫灣區"),
        description=(
            "Three local novelists discuss how the city shapes their stories. Book signing afterwards.",
            "三位本地小说家畅谈城市如何塑造他们的故事，会后签售。",
            "三位在地小說家暢談城市如何形塑他們的故事，會後簽書。",
        ),
        venue="library",
        organizers=["arts"],
        categories=["talks"],
        tags=["free"],
        day=13,
        start="19:00",
        hours=1.5,
        cost=["0"],
    ),
    dict(
        title=("Chamber Music Matinee", "室内乐午后音乐会", "室內樂午後音樂會"),
        description=(
            "String quartets by Haydn and Ravel performed by the Bayview Chamber Players.",
            "湾景室内乐团演奏海顿与拉威尔的弦乐四重奏。",
            "灣景室內樂團演奏海頓與拉威爾的弦樂四重奏。",
        ),
        venue="bayview",
        organizers=["arts"],
        categories=["classical"],
        tags=[],
        day=17,
        start="15:00",
        hours=1.5,
        cost=["$18"],
    ),
    dict(
        title=("Big Band Dance Night", "大乐队舞会之夜", "大樂團舞會之夜"),
        description=(
            "Swing and Latin standards from a sixteen-piece band. A free beginners' dance lesson starts half an hour before the band.",
            "十六人大乐队演奏摇摆乐与拉丁经典曲目。乐队登台前半小时提供免费入门舞蹈课。",
            "十六人大樂團演奏搖擺樂與拉丁經典曲目。樂團登台前半小時提供免費入門舞蹈課。",
        ),
        venue="bayview",
        organizers=["arts"],
        categories=["jazz"],
        tags=["beginners"],
        day=24,
        start="20:00",
        hours=3,
        cost=["$20"],
    ),
    dict(
        title=("Riverside Street Festival", "河畔街头嘉年华", "河畔街頭嘉年華"),
        description=(
            "Two days of live music, crafts, food stalls and games for all ages along Elm Street.",
            "榆树街上为期两天的现场音乐、手工艺、美食摊位和老少咸宜的游戏。",
            "榆樹街上為期兩天的現場音樂、手作、美食攤位和老少咸宜的遊戲。",
        ),
        venue="riverside",
        organizers=["volunteers"],
        categories=["community", "music"],
        tags=["free", "family", "outdoor"],
        day=30,
        until=(31, "23:59"),
        all_day=True,
        cost=["0"],
        featured=True,
        poster=2,
    ),
    dict(
        title=("Trail Running Clinic", "越野跑训练课", "越野跑訓練課"),
        description=(
            "Coaches cover uphill technique, pacing and safety on park trails. For runners who can run 5 km comfortably.",
            "教练讲解上坡技巧、配速和山径安全。适合能轻松跑完 5 公里的跑者。",
            "教練講解上坡技巧、配速與山徑安全。適合能輕鬆跑完 5 公里的跑者。",
        ),
        venue="bandshell",
        organizers=["runners"],
        categories=["sports"],
        tags=["outdoor", "beginners"],
        day=27,
        start="08:00",
        hours=2,
        cost=["$15"],
    ),
    dict(
        title=("Bubble Tea Workshop", "珍珠奶茶制作课", "珍珠奶茶手作課"),
        description=(
            "Cook tapioca pearls from scratch and shake your own tea. All ingredients provided.",
            "从零开始煮珍珠，亲手摇一杯奶茶。提供全部食材。",
            "從頭開始煮粉圓，親手搖一杯手搖飲。提供所有食材。",
        ),
        venue="kitchen",
        organizers=[],
        categories=["food", "workshops"],
        tags=["family"],
        day=22,
        start="14:00",
        hours=2,
        cost=["NT$450"],
    ),
    dict(
        title=("Dumpling Cooking Class", "饺子烹饪课", "水餃料理課"),
        description=(
            "Learn to make the dough, fold three shapes and cook dumplings to share.",
            "学习和面、包出三种造型，并把饺子煮好一起分享。",
            "學習揉麵糰、包出三種造型，再把水餃煮好一起分享。",
        ),
        venue="kitchen",
        organizers=[],
        categories=["food"],
        tags=[],
        day=29,
        start="18:30",
        hours=2,
        cost=["NT$800"],
    ),
    dict(
        title=("Printmaking Open Studio", "版画开放工作室", "版畫開放工作室"),
        description=(
            "Try linocut and monotype with guidance from resident artists. Materials included.",
            "在驻场艺术家指导下体验麻胶版画和独幅版画，费用含材料。",
            "在駐村藝術家指導下體驗橡膠版畫和單刷版畫，費用含材料。",
        ),
        venue="westbund",
        organizers=["lab"],
        categories=["workshops", "exhibitions"],
        tags=["beginners"],
        day=15,
        start="13:00",
        hours=4,
        cost=["¥80"],
    ),
    dict(
        title=("AI and Society: Panel Discussion", "人工智能与社会：圆桌讨论", "人工智慧與社會：座談會"),
        description=(
            "Researchers and community organisers discuss how artificial intelligence is changing work, schools and public services.",
            "研究人员与社区组织者探讨人工智能如何改变工作、学校和公共服务。",
            "研究人員與社區工作者探討人工智慧如何改變工作、學校與公共服務。",
        ),
        venue="library",
        organizers=["makers"],
        categories=["talks"],
        tags=["free"],
        day=33,
        start="19:00",
        hours=2,
        cost=["0"],
    ),
    dict(
        title=("Online Workshop: Video Editing Basics", "在线工作坊：视频剪辑入门", "線上工作坊：影片剪輯入門"),
        description=(
            "Cut, trim and add titles with free software. The link to the video call is emailed after registration.",
            "用免费软件学习剪切、修剪和添加字幕。报名后通过邮件发送视频会议链接。",
            "用免費軟體學習剪接、修剪和加上字幕。報名後以電子郵件寄送視訊會議連結。",
        ),
        venue=None,
        zone=PACIFIC,
        organizers=["makers"],
        categories=["workshops"],
        tags=["online", "beginners"],
        day=19,
        start="17:00",
        hours=1.5,
        cost=["$10"],
    ),
    dict(
        title=("Jazz Jam Session", "爵士即兴合奏夜", "爵士即興合奏夜"),
        description=(
            "The house trio plays the first set, then the stage is open. Sign up at the door with your instrument.",
            "先由驻场三重奏演出，随后开放舞台。请携带乐器在门口登记。",
            "先由駐館三重奏演出，接著開放舞台。請攜帶樂器在門口登記。",
        ),
        venue="bayview",
        organizers=["arts"],
        categories=["jazz"],
        tags=[],
        day=38,
        start="20:00",
        hours=3,
        cost=["$10"],
    ),
    dict(
        title=("West Bund Open Day", "西岸艺术中心开放日", "西岸藝術中心開放日"),
        description=(
            "Free admission to all galleries, with family activities in the courtyard.",
            "所有展厅免费开放，庭院内设亲子活动。",
            "所有展廳免費開放，中庭設有親子活動。",
        ),
        venue="westbund",
        organizers=["lab"],
        categories=["exhibitions"],
        tags=["free", "family"],
        day=50,
        until=(50, "23:59"),
        all_day=True,
        cost=["0"],
    ),
    dict(
        title=("Riverside Cycling Tour", "河滨骑行游", "河濱單車導覽"),
        description=(
            "A relaxed 20 km ride along the riverside bike paths. Rental bikes and helmets available.",
            "沿河滨自行车道轻松骑行 20 公里，可租借自行车和头盔。",
            "沿河濱自行車道輕鬆騎乘 20 公里，可租借單車與安全帽。",
        ),
        venue="daan",
        organizers=[],
        categories=["sports"],
        tags=["outdoor"],
        day=60,
        start="09:00",
        hours=3,
        cost=["NT$300"],
    ),
    dict(
        title=("Lantern-Making Evening (to be confirmed)", "灯笼制作之夜（待定）", "燈籠製作之夜（待定）"),
        description=("Details to follow.", "详情稍后公布。", "詳情稍後公布。"),
        venue="riverside",
        organizers=["volunteers"],
        categories=["community"],
        tags=["family"],
        day=40,
        start="18:00",
        hours=2,
        cost=[],
        status=PostStatus.DRAFT,
    ),
    dict(
        title=("Rooftop Astronomy Night", "屋顶观星之夜", "屋頂觀星之夜"),
        description=(
            "Telescopes on the roof to look at the Moon and the bright planets, weather permitting.",
            "在屋顶架设望远镜观测月球和明亮的行星，视天气而定。",
            "在屋頂架設望遠鏡觀測月球和明亮的行星，視天氣而定。",
        ),
        venue="riverside",
        organizers=["volunteers"],
        categories=["community"],
        tags=["family"],
        day=45,
        start="21:00",
        hours=2,
        cost=["$5"],
        status=PostStatus.PENDING,
    ),
]

POSTER_COLOURS = [("#1d3557", "#e9c46a"), ("#2a9d8f", "#f4f1de"), ("#6d597a", "#f2cc8f")]


def translations(field, texts):
    return {f"{field}_{suffix}": text for suffix, text in zip(("en", "zh_hans", "zh_hant"), texts, strict=True)}


def poster(index, author):
    """A generated poster image (a gradient with a sun), with its WordPress sizes."""
    dark, light = POSTER_COLOURS[index]
    image = ImageOps.colorize(Image.linear_gradient("L").rotate(90).resize((720, 405)), dark, light)
    ImageDraw.Draw(image).ellipse((460, 90, 640, 270), fill=light, outline=dark, width=6)
    buffer = BytesIO()
    image.save(buffer, format="JPEG", quality=80)
    attachment = Attachment(
        title=f"Demo poster {index + 1}",
        author=author,
        file=ContentFile(buffer.getvalue(), name=f"demo-poster-{index + 1}.jpg"),
    )
    attachment.save()
    return generate_sizes(attachment)


def wall_clock(today, day, clock):
    hour, minute = (int(part) for part in clock.split(":"))
    return dt.datetime.combine(today + dt.timedelta(days=day), dt.time(hour, minute))


class Command(BaseCommand):
    help = (
        "Load a small demo calendar (about thirty events over the coming months, with venues, organizers, "
        "categories and tags in English, Simplified and Traditional Chinese) and create or update the "
        "`admin` user with a new random password. A calendar that already has events is left alone "
        "unless --reset is given, which empties it first (as events_clear does)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Empty the calendar first, then load the demo.")
        parser.add_argument("--admin-username", default="admin")
        parser.add_argument("--admin-password", help="Use this password instead of a random one.")
        parser.add_argument("--no-admin", action="store_true", help="Leave users alone.")
        parser.add_argument(
            "--site-url",
            default="http://127.0.0.1:8000",
            help="Where the site is served, for the admin login printed last.",
        )

    def handle(self, *args, reset=False, admin_username="admin", admin_password=None, no_admin=False, **options):
        # One unit of work: what the load sets off (counts, store, log, cache) follows at its end.
        with pipeline.unit() as work:
            if reset:
                clear_calendar()
            admin = None if no_admin else self.admin_user(admin_username, admin_password or secrets.token_urlsafe(12))
            if Event.objects.exists():
                self.stdout.write(
                    "The calendar already has events; nothing loaded (use --reset to replace it with the demo)."
                )
            else:
                counts = self.load(admin, work)
                self.stdout.write(
                    "Demo calendar loaded: {events} events, {venues} venues, {organizers} organizers, "
                    "{categories} categories, {tags} tags.".format(**counts)
                )
        if admin is not None:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Admin login: {options['site_url'].rstrip('/')}/admin/  username: {admin_username}  password: {admin.demo_password}"
                )
            )

    def admin_user(self, username, password):
        call_command("events_user", username, f"--password={password}", f"--role={ADMINISTRATOR}", stdout=StringIO())
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.get(username=username)
        user.demo_password = password
        return user

    def load(self, author, work):
        now = timezone.now()
        published = now - dt.timedelta(days=14)

        venues = {spec["key"]: self.linked_record(Venue, spec, author, published) for spec in VENUES}
        venue_zones = {spec["key"]: spec["zone"] for spec in VENUES}
        organizers = {spec["key"]: self.linked_record(Organizer, spec, author, published) for spec in ORGANIZERS}
        terms = {}
        for key, names, parent in CATEGORIES:
            terms[key] = self.term(Category(parent=terms.get(parent)), names)
        for key, names in TAGS:
            terms[key] = self.term(Tag(), names)

        posters = [poster(index, author) for index in range(len(POSTER_COLOURS))]
        today = timezone.localdate()
        events, organizer_links, term_links = {}, [], []
        for index, spec in enumerate(EVENTS):
            zone = venue_zones[spec["venue"]] if spec["venue"] else spec["zone"]
            start = wall_clock(today, spec["day"], spec.get("start", "00:00"))
            end = wall_clock(today, *spec["until"]) if "until" in spec else start + dt.timedelta(hours=spec["hours"])
            cost = parse_cost_input(spec["cost"])
            event = Event(
                **translations("title", spec["title"]),
                **translations("description", spec["description"]),
                status=spec.get("status", PostStatus.PUBLISH),
                author=author,
                date=published + dt.timedelta(minutes=index),
                venue=venues.get(spec["venue"]),
                post_parent=events.get(spec.get("parent")),
                featured=spec.get("featured", False),
                cost=cost.values,
                currency_symbol=cost.currency_symbol,
                currency_position=cost.currency_position,
                image=posters[spec["poster"]] if "poster" in spec else None,
            )
            set_event_times(event, start, end, zone, spec.get("all_day", False))
            assign_post_slug(event)
            event.save()
            events[spec.get("key", index)] = event
            organizer_links += [
                EventOrganizer(event=event, organizer=organizers[key], position=position)
                for position, key in enumerate(spec["organizers"])
            ]
            term_links += [
                Event.terms.through(event=event, term=terms[key]) for key in spec["categories"] + spec["tags"]
            ]
        EventOrganizer.objects.bulk_create(organizer_links)
        Event.terms.through.objects.bulk_create(term_links)
        # Bulk link writes send no signal: the unit recounts every term and renders the events again.
        work.recount_all_terms()
        work.links_changed([event.pk for event in events.values()])
        return {
            "events": len(events),
            "venues": len(venues),
            "organizers": len(organizers),
            "categories": len(CATEGORIES),
            "tags": len(TAGS),
        }

    @staticmethod
    def linked_record(model, spec, author, date):
        """A published venue or organizer; the spec's items other than these few are its model fields."""
        fields = {name: spec[name] for name in spec.keys() - {"key", "title", "description", "geo", "zone"}}
        record = model(
            **translations("title", spec["title"]),
            **translations("description", spec["description"]),
            **fields,
            status=PostStatus.PUBLISH,
            author=author,
            date=date,
        )
        if model is Venue:
            record.stateprovince = Venue.derive_stateprovince(record.state, record.province, record.country)
            record.geo_lat, record.geo_lng = spec["geo"] or (None, None)
        assign_post_slug(record)
        record.save()
        return record

    @staticmethod
    def term(term, names):
        for field, name in translations("name", names).items():
            setattr(term, field, sanitize_term_name(name))
        assign_term_slug(term)
        term.save()
        return term
