//! A small news corpus written straight into the store (the ingestion pipeline is tested
//! on its own): four publishers in Washington, Lewiston ME, Montréal and Portland ME,
//! items placed by city, state and country, one story covered by three publishers.

use std::collections::HashMap;
use store::Store;
use store::content::{
    CityId, ClusterChoice, ClusterId, MediaId, NewFeed, NewMedia, NewsId, NewsRecord, PlaceKey, PublisherFeeds, Special,
};

pub const WASHINGTON: CityId = CityId(4140963);
pub const PORTLAND_ME: CityId = CityId(4975802);
pub const LEWISTON_ME: CityId = CityId(4969398);
pub const BANGOR_ME: CityId = CityId(4957280);
pub const ANCHORAGE: CityId = CityId(5879400);
pub const MONTREAL: CityId = CityId(6077243);

pub const HOUR: i64 = 3_600_000;

/// Items of the Capitol Ledger placed in Washington (besides its fire story).
pub const CAPITOL_ITEMS: usize = 25;

pub struct Corpus {
    /// Publisher slug → media_id.
    pub media: HashMap<&'static str, MediaId>,
    /// Identity → news_id.
    pub news: HashMap<String, NewsId>,
    /// When the newest item was published; others are older.
    pub now_ms: i64,
}

impl Corpus {
    pub fn id(&self, identity: &str) -> NewsId {
        self.news[identity]
    }
}

fn publisher(
    slug: &str,
    name: &str,
    country: &str,
    admin: &str,
    city: &str,
    city_id: CityId,
    lang: &str,
) -> PublisherFeeds {
    PublisherFeeds {
        media: NewMedia {
            slug: slug.into(),
            name: name.into(),
            icon_url: format!("https://{slug}.example/icon.png"),
            home_url: format!("https://{slug}.example/"),
            about: format!("About {name}"),
            contact: format!("news@{slug}.example"),
            category_id: "local".into(),
            category_top_id: "local".into(),
            country: country.into(),
            admin_code: admin.into(),
            city: city.into(),
            city_id,
            lang: lang.into(),
        },
        feeds: vec![NewFeed {
            url: format!("https://{slug}.example/feed.xml"),
            lang: lang.into(),
        }],
    }
}

/// The place keys an item in `city_id` gets from the pipeline: city, state, country.
pub fn places(city_id: CityId) -> Vec<PlaceKey> {
    let city = geo::by_id(city_id).expect("a gazetteer city");
    vec![
        PlaceKey::City(city_id),
        PlaceKey::State {
            country: city.iso.iso().into(),
            admin_code: city.admin_code.into(),
        },
        PlaceKey::Country(city.iso.iso().into()),
    ]
}

pub fn item(identity: &str, title: &str, publish_time_ms: i64, city_id: Option<CityId>) -> NewsRecord {
    let places = city_id.map(places).unwrap_or_default();
    NewsRecord {
        identity: identity.into(),
        canonical_url: format!("https://example.com/{identity}"),
        title: title.into(),
        summary: format!("{title}. More words about it."),
        body_text: format!("{title}. More words about it."),
        content: format!("<p>{title}</p>"),
        content_type: "html".into(),
        content_total_length: 40,
        news_type: 1,
        publish_time_ms,
        link_url: format!("https://example.com/{identity}"),
        category_id: "local".into(),
        tags: vec!["Tag".into()],
        lang: "en".into(),
        city_ids: city_id.into_iter().collect(),
        places,
        signature: vec![1, 2, 3],
        content_hash: format!("h-{identity}"),
        ..NewsRecord::default()
    }
}

async fn feed_id(store: &dyn Store, slug: &str) -> store::content::FeedId {
    let url = format!("https://{slug}.example/feed.xml");
    store
        .feeds()
        .await
        .unwrap()
        .into_iter()
        .find(|f| f.url == url)
        .expect("feed")
        .feed_id
}

pub async fn put(
    store: &dyn Store,
    corpus: &mut Corpus,
    slug: &'static str,
    items: Vec<NewsRecord>,
    choices: Vec<ClusterChoice>,
) -> Vec<NewsId> {
    let feed = feed_id(store, slug).await;
    let media = corpus.media[slug];
    let out = store
        .upsert_items(feed, media, &items, &choices, corpus.now_ms)
        .await
        .unwrap();
    let ids: Vec<NewsId> = out.iter().map(|u| u.news_id()).collect();
    for (item, id) in items.iter().zip(&ids) {
        corpus.news.insert(item.identity.clone(), *id);
    }
    ids
}

pub async fn seed(store: &dyn Store) -> Corpus {
    let now = super::now_ms() - 60_000;
    store
        .import_publishers(
            &[
                publisher(
                    "capitol",
                    "The Capitol Ledger",
                    "US",
                    "DC",
                    "Washington",
                    WASHINGTON,
                    "en",
                ),
                publisher(
                    "lewiston",
                    "Lewiston Lantern",
                    "US",
                    "ME",
                    "Lewiston",
                    LEWISTON_ME,
                    "en",
                ),
                publisher(
                    "devoir",
                    "Le Veilleur de Montréal",
                    "CA",
                    "QC",
                    "Montréal",
                    MONTREAL,
                    "fr",
                ),
                publisher("casco", "Casco Bay Crier", "US", "ME", "Portland", PORTLAND_ME, "en"),
            ],
            now,
        )
        .await
        .unwrap();
    let mut corpus = Corpus {
        media: HashMap::new(),
        news: HashMap::new(),
        now_ms: now,
    };
    for (slug, _) in [("capitol", 0), ("lewiston", 0), ("devoir", 0), ("casco", 0)] {
        let media = store
            .export_publishers()
            .await
            .unwrap()
            .into_iter()
            .find(|(m, _)| m.slug == slug)
            .expect("publisher")
            .0
            .media_id;
        corpus.media.insert(slug, media);
    }

    // Washington: 25 items an hour apart (the newest two hours ago), a few categories.
    let capitol: Vec<NewsRecord> = (0..CAPITOL_ITEMS as i64)
        .map(|i| {
            let mut r = item(
                &format!("dc-{i}"),
                &format!("Council notes {i}"),
                now - (2 + i) * HOUR,
                Some(WASHINGTON),
            );
            if i % 5 == 0 {
                r.category_id = "politics".into();
            }
            r
        })
        .collect();
    let n = capitol.len();
    put(store, &mut corpus, "capitol", capitol, vec![ClusterChoice::New; n]).await;

    // One story from three publishers: the newest items of all.
    let mut lead = item("fire-1", "Warehouse fire downtown", now - 30 * 60_000, Some(WASHINGTON));
    lead.org_img_url = "https://img.example/fire-original.jpg".into();
    lead.img_url = "https://img.example/fire.jpg".into();
    lead.author = "Dana Reyes".into();
    lead.category_id = "crime-safety".into();
    let fire = put(store, &mut corpus, "capitol", vec![lead], vec![ClusterChoice::New]).await[0];
    // A new story's cluster takes its first item's id.
    let fire = ClusterId(fire.0);
    let mut second = item(
        "fire-2",
        "Downtown warehouse fire spreads",
        now - 20 * 60_000,
        Some(WASHINGTON),
    );
    second.category_id = "crime-safety".into();
    put(
        store,
        &mut corpus,
        "lewiston",
        vec![second],
        vec![ClusterChoice::Join(fire)],
    )
    .await;
    let mut third = item(
        "fire-3",
        "Incendie d'un entrepôt à Washington",
        now - 10 * 60_000,
        Some(WASHINGTON),
    );
    third.lang = "fr".into();
    third.category_id = "crime-safety".into();
    put(
        store,
        &mut corpus,
        "devoir",
        vec![third],
        vec![ClusterChoice::Join(fire)],
    )
    .await;

    // Maine: Portland is quiet (2), Lewiston (a publisher's city, 50 km away) has 7.
    let portland: Vec<NewsRecord> = (0..2)
        .map(|i| {
            item(
                &format!("pwm-{i}"),
                &format!("Portland ferry {i}"),
                now - (3 + i) * HOUR,
                Some(PORTLAND_ME),
            )
        })
        .collect();
    put(store, &mut corpus, "casco", portland, vec![ClusterChoice::New; 2]).await;
    let lewiston: Vec<NewsRecord> = (0..7)
        .map(|i| {
            item(
                &format!("lew-{i}"),
                &format!("Lewiston mill {i}"),
                now - (5 + i) * HOUR,
                Some(LEWISTON_ME),
            )
        })
        .collect();
    put(store, &mut corpus, "lewiston", lewiston, vec![ClusterChoice::New; 7]).await;

    // Montréal, in French, with accents; one video, one in Spanish.
    let mut metro = item(
        "mtl-metro",
        "Montréal : le métro prolongé vers l'est",
        now - 6 * HOUR,
        Some(MONTREAL),
    );
    metro.lang = "fr".into();
    metro.category_id = "politics".into();
    let mut video = item("mtl-video", "Vidéo : la ligne bleue", now - 7 * HOUR, Some(MONTREAL));
    video.lang = "fr".into();
    video.news_type = 3;
    video.video_url = "https://v.example/ligne-bleue.mp4".into();
    let mut spanish = item(
        "mtl-es",
        "Montreal celebra el festival de jazz",
        now - 8 * HOUR,
        Some(MONTREAL),
    );
    spanish.lang = "es".into();
    spanish.category_id = "entertainment".into();
    put(
        store,
        &mut corpus,
        "devoir",
        vec![metro, video, spanish],
        vec![ClusterChoice::New; 3],
    )
    .await;

    // An old item (outside top's 72 hours) and one whose title tries to end a script.
    let old = item(
        "dc-old",
        "Budget hearings from last week",
        now - 200 * HOUR,
        Some(WASHINGTON),
    );
    let mut nasty = item(
        "dc-nasty",
        "Council </script><script>alert(1)</script> vote & \"quotes\"",
        now - 100 * HOUR,
        Some(WASHINGTON),
    );
    nasty.org_img_url = "/demo/media/images/nasty.jpg".into();
    put(
        store,
        &mut corpus,
        "capitol",
        vec![old, nasty],
        vec![ClusterChoice::New; 2],
    )
    .await;

    store
        .put_special(
            &Special {
                slug: "picked".into(),
                title: "Editors' picks".into(),
                description: "Hand-picked stories".into(),
                query: String::new(),
                news_ids: vec![corpus.id("mtl-metro"), corpus.id("pwm-0"), corpus.id("dc-3")],
            },
            now,
        )
        .await
        .unwrap();
    store
        .put_special(
            &Special {
                slug: "metro".into(),
                title: "Métro coverage".into(),
                description: "Everything about the metro".into(),
                query: "metro".into(),
                news_ids: Vec::new(),
            },
            now,
        )
        .await
        .unwrap();
    corpus
}
