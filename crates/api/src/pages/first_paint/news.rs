//! The reading screens' first render: cards, lists, the home, the article, search.
//! Each function names the React component it mirrors; keep them in step (the golden
//! test, D230, fails when they are not).

use super::payload::{AUDIO, Categories, Detail, FeedContext, FeedPage, Item, Media, SearchPage, VIDEO};
use super::time::{full_date, iso, relative_time};
use super::{CATEGORIES, DETAIL, FEED, SEARCH_NEWS, Writer};
use crate::pages::locale::encode_uri_component;
use crate::pages::shared::{home_section_size, leads_with_first};
use crate::shell::escape_html;
use domain::text::fold_for_highlight;

/// The category tabs' ids in display order (web `CATEGORY_IDS`, D62).
fn category_ids() -> impl Iterator<Item = &'static str> {
    ingest::categorize::CATEGORIES.iter().map(|(id, _)| *id)
}

#[derive(Clone, Copy, PartialEq)]
enum Variant {
    Lead,
    Row,
    Compact,
}

impl Variant {
    fn class(self) -> &'static str {
        match self {
            Variant::Lead => "lead",
            Variant::Row => "row",
            Variant::Compact => "compact",
        }
    }
}

/// `Screen` with the route table's title and lede, then `body`.
// Mirrors web/src/components/Screen.tsx (Screen)
fn screen(w: &mut Writer, body: impl FnOnce(&mut Writer)) {
    let (title, lede) = (w.t(w.cx.title_key), w.t(w.cx.description_key));
    screen_titled(w, &title, &lede, body);
}

/// `Screen` with its own title and lede (a category's name), then `body`.
// Mirrors web/src/components/Screen.tsx (Screen)
fn screen_titled(w: &mut Writer, title: &str, lede: &str, body: impl FnOnce(&mut Writer)) {
    w.raw(r#"<article class="screen"><div class="screen__head"><h1 class="screen__title">"#)
        .text(title)
        .raw(r#"</h1><p class="screen__lede">"#)
        .text(lede)
        .raw("</p></div>");
    body(w);
    w.raw("</article>");
}

/// `FeedSection` (with its optional "see all" link) around `body`.
// Mirrors web/src/features/news/components/FeedSection.tsx (FeedSection)
fn feed_section(w: &mut Writer, title: &str, more: Option<(&str, &str)>, body: impl FnOnce(&mut Writer)) {
    let id = w.id();
    w.raw(&format!(
        r#"<section class="section" aria-labelledby="{id}"><div class="section-head"><h2 id="{id}" class="section__title">"#
    ))
    .text(title)
    .raw("</h2>");
    if let Some((path, label)) = more {
        let href = w.href(path);
        w.raw(&format!(r#"<a class="section-head__more" href="{href}">"#))
            .text(label)
            .raw("</a>");
    }
    w.raw("</div>");
    body(w);
    w.raw("</section>");
}

/// `Section` of `components/Screen.tsx` (no "see all" link, no head wrapper).
// Mirrors web/src/components/Screen.tsx (Section)
fn plain_section(w: &mut Writer, title: &str, body: impl FnOnce(&mut Writer)) {
    let id = w.id();
    w.raw(&format!(
        r#"<section class="section" aria-labelledby="{id}"><h2 id="{id}" class="section__title">"#
    ))
    .text(title)
    .raw("</h2>");
    body(w);
    w.raw("</section>");
}

/// `CategoryTabs`: the API's names when the page has them, else the catalogue's; the
/// tab of the page's category is current (a `NavLink`).
// Mirrors web/src/features/news/components/CategoryTabs.tsx (CategoryTabs)
fn category_tabs(w: &mut Writer) {
    let from_api = w
        .call::<Categories>(CATEGORIES, None)
        .map(|c| c.list)
        .filter(|l| !l.is_empty());
    let tabs: Vec<(String, String)> = match from_api {
        Some(list) => list
            .into_iter()
            .map(|c| {
                let name = if c.name.is_empty() {
                    w.t(&format!("Category_{}", c.id))
                } else {
                    c.name
                };
                (c.id, name)
            })
            .collect(),
        None => category_ids()
            .map(|id| (id.to_string(), w.t(&format!("Category_{id}"))))
            .collect(),
    };
    let label = w.t("News_Categories");
    w.raw(r#"<nav class="category-tabs" aria-label=""#)
        .text(label)
        .raw(r#""><ul class="category-tabs__list">"#);
    for (id, name) in tabs {
        let path = format!("/category/{id}");
        let href = w.href(&path);
        let current = if super::layout::is_active(&path, w.cx.rest) {
            r#"aria-current="page" class="category-tabs__link active""#
        } else {
            r#"class="category-tabs__link""#
        };
        w.raw(&format!(r#"<li><a {current} href="{href}">"#))
            .text(&name)
            .raw("</a></li>");
    }
    w.raw("</ul></nav>");
}

/// `EmptyState`.
// Mirrors web/src/components/Screen.tsx (EmptyState)
fn empty_state(w: &mut Writer, title: &str, hint: &str) {
    w.raw(concat!(
        r#"<div class="empty"><svg class="empty__icon" viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">"#,
        r#"<path fill="currentColor" d="M4 4h13a3 3 0 0 1 3 3v11a2 2 0 0 1-2 2H6a3 3 0 0 1-3-3V5a1 1 0 0 1 1-1Zm1 2v11a1 1 0 0 0 1 1h12V7a1 1 0 0 0-1-1H5Zm2 2h8v2H7V8Zm0 4h8v2H7v-2Z"></path></svg>"#,
        r#"<p class="empty__title">"#
    ))
    .text(title)
    .raw(r#"</p><p class="empty__hint">"#)
    .text(hint)
    .raw("</p></div>");
}

// Mirrors web/src/features/news/components/NewsFeed.tsx (NoStories)
fn no_stories(w: &mut Writer) {
    let (title, hint) = (w.t("Empty_Stories"), w.t("Empty_StoriesHint"));
    empty_state(w, &title, &hint);
}

/// Cards a paging list writes: the first screen's worth on a phone and a desktop. The app
/// renders the whole page below them when it takes over (nothing above them moves);
/// writing all 20 made the browser parse, style and lay out a page of cards nobody sees
/// yet, several times over while the HTML streamed in (search TBT).
const FIRST_SCREEN_CARDS: usize = 6;

/// `PagedList` + `NewsFeed` on a loaded first page: a home section's cards (`limit`), or
/// the first screen's cards of a paging list (its "Load more" comes with the app).
// Mirrors web/src/features/news/components/NewsFeed.tsx (PagedList, NewsFeed)
fn news_list(w: &mut Writer, items: &[Item], limit: Option<usize>, lead_first: bool, terms: &[String]) {
    let shown = limit.unwrap_or(FIRST_SCREEN_CARDS).min(items.len());
    w.raw(r#"<div class="paged-list" aria-busy="false"><ul class="news-list">"#);
    for (i, item) in items[..shown].iter().enumerate() {
        w.raw("<li>");
        let variant = if lead_first && i == 0 {
            Variant::Lead
        } else {
            Variant::Row
        };
        news_card(w, item, variant, terms);
        w.raw("</li>");
    }
    w.raw("</ul>");
    if limit.is_none() {
        // The paging list's status line ("Loading more…" while a page loads).
        w.raw(r#"<p class="visually-hidden" role="status"></p>"#);
    }
    w.raw("</div>");
}

/// A feed's first page as the screen shows it: the list, or the empty state.
fn feed_or_empty(w: &mut Writer, items: &[Item], limit: Option<usize>, lead_first: bool) {
    if items.is_empty() {
        no_stories(w);
    } else {
        news_list(w, items, limit, lead_first, &[]);
    }
}

/// `PublisherBadge`.
// Mirrors web/src/features/news/components/NewsCard.tsx (PublisherBadge)
fn publisher_badge(w: &mut Writer, name: &str, icon: &str) {
    if icon.is_empty() {
        let initial: String = name.chars().take(1).flat_map(char::to_uppercase).collect();
        w.raw(r#"<span class="publisher-icon publisher-icon--initial" aria-hidden="true">"#)
            .text(&initial)
            .raw("</span>");
    } else {
        w.raw(&format!(
            r#"<img class="publisher-icon" src="{}" alt="" width="18" height="18" loading="lazy">"#,
            escape_html(icon)
        ));
    }
    w.raw("<span>").text(name).raw("</span>");
}

/// `TimeAgo`: the words, with the full date (UTC here, the reader's zone in the app) as
/// its title.
// Mirrors web/src/features/news/components/NewsCard.tsx (TimeAgo)
fn time_ago(w: &mut Writer, ms: i64) {
    if ms <= 0 {
        return;
    }
    let words = relative_time(ms, w.cx.now_ms, w.cx.locale);
    let title = full_date(ms, w.cx.locale);
    w.raw(&format!(
        r#"<time datetime="{}" title="{}">"#,
        iso(ms),
        escape_html(&title)
    ))
    .text(&words)
    .raw("</time>");
}

/// `NewsBadges`.
// Mirrors web/src/features/news/components/NewsCard.tsx (NewsBadges)
fn news_badges(w: &mut Writer, item: &Item) {
    let kind = item.kind;
    if kind == VIDEO {
        let label = w.t("News_Video");
        w.raw(r#"<span class="badge badge--media"><svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true"><path fill="currentColor" d="M8 5v14l11-7z"></path></svg>"#)
            .text(label)
            .raw("</span>");
    }
    if kind == AUDIO {
        let label = w.t("News_Audio");
        w.raw(r#"<span class="badge badge--media"><svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true"><path fill="currentColor" d="M12 3a4 4 0 0 0-4 4v5a4 4 0 0 0 8 0V7a4 4 0 0 0-4-4Zm7 9a7 7 0 0 1-6 6.9V21h-2v-2.1A7 7 0 0 1 5 12h2a5 5 0 0 0 10 0h2Z"></path></svg>"#)
            .text(label)
            .raw("</span>");
    }
    let sources = item.cluster_size;
    if sources > 1 {
        let text = w.t_with("News_Sources", &[("count", &sources.to_string())]);
        w.raw(r#"<span class="badge">"#).text(&text).raw("</span>");
    }
}

/// `NewsImage` as its first render shows it: the eager (lead) image at once, any other
/// as a placeholder the app fills when it comes near (§4 image states). The placeholder's
/// loading sweep is left to the app: a screen of 20 animations before the app runs cost
/// main-thread frames in Lighthouse's trace (search TBT), and nothing is loading yet.
// Mirrors web/src/features/news/components/NewsImage.tsx (NewsImage)
fn news_image(w: &mut Writer, class: Option<&str>, src: &str, alt: &str, eager: bool) {
    let class = class.map_or("news-image".to_string(), |c| format!("news-image {c}"));
    if eager {
        w.raw(&format!(
            r#"<div class="{class}" data-state="loading" data-attempt="1" data-eager="true"><img class="news-image__img" src="{}" alt="{}" decoding="sync" fetchpriority="high"></div>"#,
            escape_html(src),
            escape_html(alt)
        ));
    } else {
        w.raw(&format!(
            r#"<div class="{class}" data-state="loading" data-attempt="1"></div>"#
        ));
    }
}

/// `NewsCard`.
// Mirrors web/src/features/news/components/NewsCard.tsx (NewsCard)
fn news_card(w: &mut Writer, item: &Item, variant: Variant, terms: &[String]) {
    let title_id = w.id();
    let summary = item.summary_or_description();
    let thumbnail = item.thumbnail();
    let show_image = variant != Variant::Compact && !thumbnail.is_empty();
    w.raw(&format!(
        r#"<article class="news-card news-card--{}{}" aria-labelledby="{title_id}"><div class="news-card__body"><p class="news-card__kicker">"#,
        variant.class(),
        if show_image { "" } else { " news-card--no-image" }
    ));
    if !item.category_id.is_empty() {
        let name = w.t(&format!("Category_{}", item.category_id));
        w.raw(r#"<span class="news-card__category">"#).text(name).raw("</span>");
    }
    news_badges(w, item);
    let href = w.href(&format!("/article/{}", item.news_id));
    w.raw(&format!(
        r#"</p><h3 class="news-card__title" id="{title_id}"><a class="news-card__link" href="{href}">"#
    ));
    highlight(w, &item.title, terms);
    w.raw("</a></h3>");
    if variant != Variant::Compact && !summary.is_empty() {
        w.raw(r#"<p class="news-card__summary">"#);
        highlight(w, summary, terms);
        w.raw("</p>");
    }
    w.raw(r#"<p class="news-card__meta">"#);
    if item.media_id.0 > 0 {
        let href = w.href(&format!("/media/{}", item.media_id));
        w.raw(&format!(r#"<a class="news-card__publisher" href="{href}">"#));
        publisher_badge(w, &item.media_name, &item.media_icon);
        w.raw("</a>");
    }
    time_ago(w, item.publish_time);
    w.raw("</p></div>");
    if show_image {
        news_image(w, Some("news-card__image"), thumbnail, "", variant == Variant::Lead);
    }
    w.raw("</article>");
}

/// `Highlight`: the search terms marked, accent- and case-insensitively, at word starts
/// and to the end of the word (web `highlightParts`).
// Mirrors web/src/features/news/components/Highlight.tsx (Highlight)
fn highlight(w: &mut Writer, text: &str, terms: &[String]) {
    for (part, marked) in highlight_parts(text, terms) {
        if marked {
            w.raw("<mark>").text(part).raw("</mark>");
        } else {
            w.text(part);
        }
    }
}

pub(super) fn highlight_parts<'t>(text: &'t str, terms: &[String]) -> Vec<(&'t str, bool)> {
    let mut wanted: Vec<String> = terms
        .iter()
        .map(|t| t.trim().chars().map(fold_for_highlight).collect::<String>())
        .filter(|t| !t.is_empty())
        .collect();
    wanted.dedup();
    if text.is_empty() {
        return Vec::new();
    }
    // The folded text as characters, each with the byte offset of its source character.
    let mut folded: Vec<char> = Vec::new();
    let mut map: Vec<usize> = Vec::new();
    for (at, c) in text.char_indices() {
        for f in fold_for_highlight(c).chars() {
            folded.push(f);
            map.push(at);
        }
    }
    map.push(text.len());
    let is_word = |c: char| c.is_alphanumeric();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for term in &wanted {
        let term: Vec<char> = term.chars().collect();
        if term.len() > folded.len() {
            continue;
        }
        for at in 0..=folded.len() - term.len() {
            if folded[at..at + term.len()] != term[..] || (at > 0 && is_word(folded[at - 1])) {
                continue;
            }
            let mut end = at + term.len();
            while end < folded.len() && is_word(folded[end]) {
                end += 1;
            }
            ranges.push((map[at], map[end]));
        }
    }
    if ranges.is_empty() {
        return vec![(text, false)];
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    let mut parts = Vec::new();
    let mut cursor = 0;
    for (start, end) in merged {
        if start > cursor {
            parts.push((&text[cursor..start], false));
        }
        parts.push((&text[start..end], true));
        cursor = end;
    }
    if cursor < text.len() {
        parts.push((&text[cursor..], false));
    }
    parts
}

/// `home.tsx` (before its below-the-fold latest list).
// Mirrors web/src/routes/screens/home.tsx (Home)
pub(super) fn home(w: &mut Writer) -> Option<()> {
    let local: FeedPage = w.call(FEED, Some(("channel", "local")))?;
    let top: Option<FeedPage> = w.call(FEED, Some(("channel", "top")));
    let city = reader_city(w, &local);
    screen(w, |w| {
        let line = if city.is_empty() {
            w.t("Home_NoCity").to_string()
        } else {
            w.t_with("Home_YourCity", &[("city", &city)])
        };
        let change = w.t("City_Change");
        w.raw(r#"<div class="home"><div class="home__city"><p>"#)
            .text(&line)
            .raw(r#"</p><button type="button" class="button" aria-haspopup="dialog">"#)
            .text(change)
            .raw("</button></div>");
        category_tabs(w);
        w.raw(r#"<div class="home__slot" data-slot="weather"></div>"#);
        let title = if city.is_empty() {
            w.t("Section_LocalNoCity").to_string()
        } else {
            w.t_with("Section_Local", &[("city", &city)])
        };
        let more = w.t("Home_MoreLocal");
        feed_section(w, &title, Some(("/local", &more)), |w| {
            scope_note(w, &local.context, &city);
            feed_or_empty(w, &local.list, Some(home_section_size()), leads_with_first(w.cx.route));
        });
        let (title, more) = (w.t("Section_TopStories"), w.t("Home_MoreTop"));
        feed_section(w, &title, Some(("/top-news", &more)), |w| match &top {
            Some(top) => feed_or_empty(w, &top.list, Some(home_section_size()), false),
            None => list_skeleton(w, 4),
        });
        w.raw(r#"<div class="home__slot" data-slot="trends"></div>"#);
        let title = w.t("Section_Latest");
        feed_section(w, &title, None, |_| {});
        w.raw("</div>");
    });
    Some(())
}

/// `ListSkeleton`: a call the page could not answer; the app asks again.
// Mirrors web/src/features/news/components/StatusViews.tsx (ListSkeleton)
fn list_skeleton(w: &mut Writer, count: usize) {
    let label = w.t("News_Loading");
    w.raw(r#"<div class="news-skeleton" role="status"><span class="visually-hidden">"#)
        .text(label)
        .raw(r#"</span><ul class="news-list" aria-hidden="true">"#);
    for _ in 0..count {
        w.raw(concat!(
            r#"<li class="news-card news-card--skeleton"><div class="news-card__body">"#,
            r#"<span class="skeleton-line skeleton-line--short"></span><span class="skeleton-line"></span>"#,
            r#"<span class="skeleton-line"></span><span class="skeleton-line skeleton-line--meta"></span></div>"#,
            r#"<span class="news-image news-card__image skeleton-box"></span></li>"#
        ));
    }
    w.raw("</ul></div>");
}

/// `ScopeNote`: says when a quiet city's feed was widened.
// Mirrors web/src/features/news/components/FeedSection.tsx (ScopeNote)
fn scope_note(w: &mut Writer, context: &FeedContext, label: &str) {
    let scope = context.scope.as_str();
    if scope.is_empty() || scope == "city" {
        return;
    }
    let city = [label, &context.city.city_show, &context.city.name]
        .into_iter()
        .find(|s| !s.is_empty())
        .unwrap_or_default();
    let area = Some(context.area_name.as_str())
        .filter(|a| !a.is_empty())
        .unwrap_or(city);
    let text = match scope {
        "nearby" => w.t_with("Local_ScopeNearby", &[("city", city)]),
        "state" => w.t_with("Local_ScopeState", &[("city", city), ("area", area)]),
        _ => w.t_with("Local_ScopeCountry", &[("city", city), ("area", area)]),
    };
    w.raw(r#"<p class="scope-note" role="note">"#).text(&text).raw("</p>");
}

/// Does route `route` show its first story as a lead card (the app's `leadFirst`)? One
/// list for the server: the head preloads those screens' lead image (D147).
fn lead_first(w: &Writer) -> bool {
    leads_with_first(w.cx.route)
}

/// `category.tsx`: the category's name (the API's, else the catalogue's) as the title.
// Mirrors web/src/routes/screens/category.tsx (Category)
pub(super) fn category(w: &mut Writer) -> Option<()> {
    let (call, _) = w.cx.page.main.as_ref()?;
    let id = call.params.iter().find(|(k, _)| k == "category")?.1.clone();
    let data: FeedPage = w.call(FEED, Some(("category", &id)))?;
    let from_api = w
        .call::<Categories>(CATEGORIES, None)
        .and_then(|c| c.list.into_iter().find(|c| c.id == id))
        .map(|c| c.name)
        .filter(|n| !n.is_empty());
    let name = from_api.unwrap_or_else(|| w.t(&format!("Category_{id}")));
    let lede = w.t_with("Category_Lede", &[("category", &name)]);
    let lead = lead_first(w);
    screen_titled(w, &name, &lede, |w| {
        category_tabs(w);
        feed_or_empty(w, &data.list, None, lead);
    });
    Some(())
}

/// `local.tsx`: the reader's city, widened (and saying so) when it is quiet.
// Mirrors web/src/routes/screens/local.tsx (Local)
pub(super) fn local(w: &mut Writer) -> Option<()> {
    let data: FeedPage = w.call(FEED, Some(("channel", "local")))?;
    let city = reader_city(w, &data);
    let lead = lead_first(w);
    screen(w, |w| {
        let change = w.t("City_Change");
        w.raw(r#"<p><button type="button" class="button" aria-haspopup="dialog">"#)
            .text(change)
            .raw("</button></p>");
        let title = if city.is_empty() {
            w.t("Section_LocalNoCity")
        } else {
            w.t_with("Section_Local", &[("city", &city)])
        };
        feed_section(w, &title, None, |w| {
            scope_note(w, &data.context, &city);
            feed_or_empty(w, &data.list, None, lead);
        });
    });
    Some(())
}

/// The city a local feed is for, as the screens name it (`reader.label`, else the
/// feed's own city).
fn reader_city(w: &Writer, local: &FeedPage) -> String {
    let label = w.cx.city_label.as_deref().unwrap_or_default();
    domain::geo::local_section_city(label, &local.context.city.city_show)
}

/// `latest.tsx` and `top-news.tsx`: tabs, then the feed (with a lead card).
// Mirrors web/src/routes/screens/latest.tsx (Latest) and top-news.tsx (TopNews)
pub(super) fn feed_screen(w: &mut Writer) -> Option<()> {
    let data: FeedPage = w.call(FEED, None)?;
    let lead = lead_first(w);
    screen(w, |w| {
        category_tabs(w);
        feed_or_empty(w, &data.list, None, lead);
    });
    Some(())
}

/// `article.tsx` + `ArticleView`, down to the full coverage (the "more from" list below
/// it comes after the app's first paint).
// Mirrors web/src/routes/screens/article.tsx (Article) and web/src/features/news/components/ArticleView.tsx (ArticleView)
pub(super) fn article(w: &mut Writer) -> Option<()> {
    let detail: Detail = w.call(DETAIL, None)?;
    let news = &detail.news;
    // The app's `readDetail`: without a publisher record, the item's own media fields.
    let media = if detail.media.media_id.0 != 0 {
        detail.media
    } else {
        Media {
            media_id: news.media_id,
            name: news.media_name.clone(),
            icon_url: news.media_icon.clone(),
        }
    };
    let publisher = if media.name.is_empty() {
        news.media_name.as_str()
    } else {
        media.name.as_str()
    };
    let image = news.main_image();
    w.raw(r#"<div class="screen"><article class="article" aria-labelledby="article-title"><header class="article__head"><p class="news-card__kicker">"#);
    if !news.category_id.is_empty() {
        let href = w.href(&format!("/category/{}", news.category_id));
        let name = w.t(&format!("Category_{}", news.category_id));
        w.raw(&format!(r#"<a href="{href}">"#)).text(name).raw("</a>");
    }
    news_badges(w, news);
    w.raw(r#"</p><h1 id="article-title" class="article__title">"#)
        .text(&news.title)
        .raw(r#"</h1><p class="article__byline">"#);
    if news.media_id.0 > 0 {
        let href = w.href(&format!("/media/{}", news.media_id));
        let icon = if media.icon_url.is_empty() {
            news.media_icon.as_str()
        } else {
            media.icon_url.as_str()
        };
        w.raw(&format!(r#"<a class="news-card__publisher" href="{href}">"#));
        publisher_badge(w, publisher, icon);
        w.raw("</a>");
    }
    if !news.author.is_empty() {
        let by = w.t_with("Article_By", &[("author", &news.author)]);
        w.raw("<span>").text(&by).raw("</span>");
    }
    time_ago(w, news.publish_time);
    w.raw("</p></header>");

    if news.kind == VIDEO && !news.video_url.is_empty() {
        let poster = if image.is_empty() {
            String::new()
        } else {
            format!(r#" poster="{}""#, escape_html(image))
        };
        media_player(
            w,
            "video",
            &news.video_url,
            &format!(r#"preload="metadata"{poster}"#),
            "Article_OpenVideo",
        );
    } else if !image.is_empty() {
        news_image(w, None, image, &news.title, true);
    }
    if news.kind == AUDIO && !news.voice_url.is_empty() {
        media_player(w, "audio", &news.voice_url, r#"preload="none""#, "Article_OpenAudio");
    }
    article_body(w, news);
    original_link(w, news, publisher);
    article_facts(w, news);
    w.raw("</article>");

    if !detail.cluster.is_empty() {
        let title = w.t("Article_FullCoverage");
        plain_section(w, &title, |w| {
            w.raw(r#"<ul class="news-list news-list--single">"#);
            for item in &detail.cluster {
                w.raw("<li>");
                news_card(w, item, Variant::Compact, &[]);
                w.raw("</li>");
            }
            w.raw("</ul>");
        });
    }
    w.raw("</div>");
    Some(())
}

/// An article's `<video>` or `<audio>` player with a link to the file inside, for
/// browsers that cannot play it.
// Mirrors web/src/features/news/components/ArticleView.tsx (the article__media players)
fn media_player(w: &mut Writer, tag: &str, src: &str, attrs: &str, open_key: &str) {
    let src = escape_html(src);
    let open = w.t(open_key);
    w.raw(&format!(
        r#"<div class="article__media"><{tag} controls="" {attrs} src="{src}"><a href="{src}">"#
    ))
    .text(open)
    .raw(&format!("</a></{tag}></div>"));
}

/// Plain text as paragraphs at blank lines (`TextBody`).
// Mirrors web/src/features/news/components/ArticleView.tsx (TextBody)
fn text_body(w: &mut Writer, text: &str) {
    // The app splits at `/\n\s*\n/`: a line holding only whitespace ends a paragraph.
    let mut paragraph: Vec<&str> = Vec::new();
    for line in text.split('\n').chain(std::iter::once("")) {
        if !line.trim().is_empty() {
            paragraph.push(line);
            continue;
        }
        let joined = paragraph.join("\n");
        let joined = joined.trim();
        if !joined.is_empty() {
            w.raw("<p>").text(joined).raw("</p>");
        }
        paragraph.clear();
    }
}

/// `ArticleBody`: the story's sanitised HTML, else plain text, else the summary.
// Mirrors web/src/features/news/components/ArticleView.tsx (ArticleBody)
fn article_body(w: &mut Writer, news: &Item) {
    let content = news.content.as_str();
    if !content.trim().is_empty() {
        w.raw(r#"<div class="article__body">"#);
        if news.content_type == "text" {
            text_body(w, content);
        } else {
            // Stored content was sanitised when it was ingested (and the app shows it
            // as is). This is the page itself, so markup the sanitiser never leaves
            // (scripts, frames, handlers) is cleaned again rather than trusted.
            if leaves_the_allow_list(content) {
                w.raw(&ingest::clean::sanitize_html(content, None));
            } else {
                w.raw(content);
            }
        }
        w.raw("</div>");
        return;
    }
    let summary = news.summary_or_description();
    if !summary.is_empty() {
        w.raw(r#"<div class="article__body">"#);
        text_body(w, summary);
        w.raw("</div>");
    }
}

/// Elements and attributes the ingest sanitiser's allow-list never lets through.
const NEVER_ALLOWED: [&str; 12] = [
    "<script", "<style", "<iframe", "<frame", "<object", "<embed", "<link", "<meta", "<base", "<form", "<svg", "<math",
];

/// Does this HTML hold anything the sanitiser would have removed: a forbidden element,
/// an event handler attribute (` on…=` inside a tag) or a `javascript:` URL?
fn leaves_the_allow_list(html: &str) -> bool {
    let lower = html.to_ascii_lowercase();
    if NEVER_ALLOWED.iter().any(|tag| lower.contains(tag)) || lower.contains("javascript:") {
        return true;
    }
    lower.split('<').skip(1).any(|tag| {
        let tag = tag.split('>').next().unwrap_or_default();
        tag.split(|c: char| c.is_ascii_whitespace() || c == '/')
            .skip(1)
            .any(|attr| attr.starts_with("on") && attr.contains('='))
    })
}

/// The host of a URL without `www.` (web `hostOf`, D235): the WHATWG URL parser's host
/// and port, "" when `url` is not an absolute URL.
// Mirrors web/src/lib/news/format.ts (hostOf)
pub(super) fn host_of(url: &str) -> String {
    let Ok(parsed) = url::Url::parse(url) else {
        return String::new();
    };
    let host = match (parsed.host_str(), parsed.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        (None, _) => return String::new(),
    };
    host.strip_prefix("www.").map_or_else(|| host.clone(), str::to_string)
}

/// The "read the original" line of `ArticleView`.
// Mirrors web/src/features/news/components/ArticleView.tsx (article__original)
fn original_link(w: &mut Writer, news: &Item, publisher: &str) {
    let link = news.link_url.as_str();
    if link.is_empty() {
        return;
    }
    let host = host_of(link);
    let host = host.as_str();
    let note = w.t_with(
        "Article_OriginalNote",
        &[("host", if host.is_empty() { publisher } else { host })],
    );
    let read = w.t_with(
        "Article_ReadOriginal",
        &[("publisher", if publisher.is_empty() { host } else { publisher })],
    );
    w.raw(r#"<p class="article__original"><span>"#)
        .text(&note)
        .raw(&format!(
            r#"</span><a class="button button--primary" href="{}" rel="noopener">"#,
            escape_html(link)
        ))
        .text(&read)
        .raw("</a></p>");
}

/// The places and tags of a story (`article__facts`).
// Mirrors web/src/features/news/components/ArticleView.tsx (article__facts)
fn article_facts(w: &mut Writer, news: &Item) {
    if news.area_list.is_empty() && news.tags.is_empty() {
        return;
    }
    w.raw(r#"<dl class="article__facts">"#);
    if !news.area_list.is_empty() {
        let label = w.t("Article_Places");
        w.raw("<div><dt>").text(label).raw(r#"</dt><dd><ul class="chips">"#);
        let lang = w.cx.locale.code();
        for area in &news.area_list {
            // The app's `areaName`: the name in the page's language, else the area's own.
            let name = area.name_map.get(lang).filter(|s| !s.is_empty()).unwrap_or(&area.name);
            let path = format!("/location/{}", encode_uri_component(&area.id.to_string()));
            let href = w.href(&path);
            w.raw(&format!(r#"<li><a class="chip" href="{href}">"#))
                .text(name)
                .raw("</a></li>");
        }
        w.raw("</ul></dd></div>");
    }
    if !news.tags.is_empty() {
        let label = w.t("Article_Tags");
        w.raw("<div><dt>").text(label).raw(r#"</dt><dd><ul class="chips">"#);
        for tag in &news.tags {
            let path = format!("/search/news?q={}", encode_uri_component(tag));
            let href = w.href(&path);
            w.raw(&format!(r#"<li><a class="chip" href="{href}">"#))
                .text(tag)
                .raw("</a></li>");
        }
        w.raw("</ul></dd></div>");
    }
    w.raw("</dl>");
}

/// `SearchScreen` for news with results the page answered (no time filter: the app
/// computes that one from its own clock).
// Mirrors web/src/features/search/SearchScreen.tsx (SearchScreen, NewsResults) and SearchForm.tsx (SearchForm)
pub(super) fn search_news(w: &mut Writer) -> Option<()> {
    let data: SearchPage = w.call(SEARCH_NEWS, None)?;
    let q = w.query("q").trim().to_string();
    let city_id = w.query("city_id");
    let category = w.query("category");
    let filtered = !city_id.is_empty() || !category.is_empty() || !w.query("time").is_empty();
    screen(w, |w| {
        let label = w.t("Search_Label");
        let submit = w.t("Search_Submit");
        let id = w.id();
        w.raw(&format!(
            r#"<form role="search" class="search-form"><label for="{id}" class="visually-hidden">"#
        ))
        .text(&label)
        .raw(&format!(
            r#"</label><input id="{id}" type="search" name="q" class="search-form__input" value="{}" placeholder="{}"><button type="submit" class="button button--primary">"#,
            escape_html(&q),
            escape_html(&label)
        ))
        .text(submit)
        .raw("</button></form>");
        let suffix = if q.is_empty() {
            String::new()
        } else {
            format!("?q={}", encode_uri_component(&q))
        };
        let news_href = format!("{}{suffix}", w.href("/search/news"));
        let media_href = format!("{}{suffix}", w.href("/search/media"));
        let (tabs, news, media) = (w.t("Title_search"), w.t("Search_News"), w.t("Search_Media"));
        w.raw(r#"<nav class="tabs" aria-label=""#)
            .text(tabs)
            .raw(&format!(
                r#""><a aria-current="page" class="tabs__link active" href="{news_href}">"#
            ))
            .text(news)
            .raw(&format!(r#"</a><a class="tabs__link" href="{media_href}">"#))
            .text(media)
            .raw("</a></nav>");
        search_filters(w, &city_id, &category, filtered);
        let title = w.t("Section_Stories");
        plain_section(w, &title, |w| {
            if data.list.is_empty() {
                no_results(w, &q, filtered);
            } else {
                news_list(w, &data.list, None, false, &data.terms);
            }
        });
    });
    Some(())
}

/// A news search that found nothing: what to try, and where to go instead.
// Mirrors web/src/features/search/SearchScreen.tsx (NewsResults' empty state)
fn no_results(w: &mut Writer, q: &str, filtered: bool) {
    let title = w.t_with("Search_NoNews", &[("q", q)]);
    let (spelling, fewer) = (w.t("Search_TipSpelling"), w.t("Search_TipFewer"));
    w.raw(r#"<div class="empty"><p class="empty__title">"#)
        .text(&title)
        .raw(r#"</p><ul class="search-tips"><li>"#)
        .text(spelling)
        .raw("</li><li>")
        .text(fewer)
        .raw("</li>");
    if filtered {
        let tip = w.t("Search_TipFilters");
        w.raw("<li>").text(tip).raw("</li>");
    }
    w.raw(r#"</ul><p class="search-tips__actions">"#);
    if filtered {
        let clear = w.t("Search_ClearFilters");
        w.raw(r#"<button type="button" class="button">"#)
            .text(clear)
            .raw("</button>");
    }
    let publishers = format!("{}?q={}", w.href("/search/media"), encode_uri_component(q));
    let latest = w.href("/latest");
    let (try_publishers, see_latest) = (w.t("Search_TryPublishers"), w.t("Search_SeeLatest"));
    w.raw(&format!(r#"<a class="button" href="{publishers}">"#))
        .text(try_publishers)
        .raw(&format!(r#"</a><a class="button" href="{latest}">"#))
        .text(see_latest)
        .raw("</a></p></div>");
}

/// The search filters row as it first renders (`PlaceFilter` without a city chosen,
/// category and time selects).
// Mirrors web/src/features/search/SearchScreen.tsx (search-filters) and PlaceFilter.tsx (PlaceFilter)
fn search_filters(w: &mut Writer, city_id: &str, category: &str, filtered: bool) {
    let label = w.t("Search_Filters");
    w.raw(r#"<div class="search-filters" role="group" aria-label=""#)
        .text(label)
        .raw(r#"">"#);
    let place = w.t("Search_Place");
    if city_id.is_empty() {
        let id = w.id();
        let hint = w.t("Search_PlaceHint");
        w.raw(&format!(r#"<div class="field place-filter"><label for="{id}">"#))
            .text(place)
            .raw(&format!(
                r#"</label><input id="{id}" type="search" autocomplete="off" placeholder="{}" value=""></div>"#,
                escape_html(&hint)
            ));
    } else {
        let shown = w.query("city");
        let shown = if shown.is_empty() { city_id.to_string() } else { shown };
        let remove = w.t_with("Search_RemovePlace", &[("place", &shown)]);
        w.raw(r#"<div class="field"><span>"#)
            .text(place)
            .raw(r#"</span><span class="chip">"#)
            .text(&shown)
            .raw(&format!(
                r#" <button type="button" class="chip__remove" aria-label="{}">×</button></span></div>"#,
                escape_html(&remove)
            ));
    }
    let (label, any) = (w.t("Search_Category"), w.t("Search_AnyCategory"));
    w.raw(r#"<label class="field"><span>"#)
        .text(label)
        .raw("</span><select>");
    option(w, "", &any, category.is_empty());
    for id in category_ids() {
        let name = w.t(&format!("Category_{id}"));
        option(w, id, &name, category == id);
    }
    w.raw("</select></label>");
    let (label, any, day, week) = (
        w.t("Search_Time"),
        w.t("Search_AnyTime"),
        w.t("Search_Past24h"),
        w.t("Search_Past7d"),
    );
    let time = w.query("time");
    w.raw(r#"<label class="field"><span>"#)
        .text(label)
        .raw("</span><select>");
    option(w, "", &any, time.is_empty());
    option(w, "24h", &day, time == "24h");
    option(w, "7d", &week, time == "7d");
    w.raw("</select></label>");
    if filtered {
        let clear = w.t("Search_ClearFilters");
        w.raw(r#"<button type="button" class="button">"#)
            .text(clear)
            .raw("</button>");
    }
    w.raw("</div>");
}

fn option(w: &mut Writer, value: &str, label: &str, selected: bool) {
    w.raw(&format!(
        r#"<option value="{}"{}>"#,
        escape_html(value),
        if selected { " selected" } else { "" }
    ))
    .text(label)
    .raw("</option>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(text: &str, terms: &[&str]) -> String {
        let terms: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
        highlight_parts(text, &terms)
            .into_iter()
            .map(|(part, m)| if m { format!("[{part}]") } else { part.to_string() })
            .collect()
    }

    /// The cases of web `format.test.ts`'s `highlightParts`.
    #[test]
    fn highlighting_marks_words_that_start_with_a_term_ignoring_case_and_accents() {
        assert_eq!(
            marked("Council votes on budget", &["vote"]),
            "Council [votes] on budget"
        );
        assert_eq!(
            marked("L'École de Montréal", &["ecole", "montreal"]),
            "L'[École] de [Montréal]"
        );
        assert_eq!(marked("Revote today", &["vote"]), "Revote today", "not inside a word");
        assert_eq!(marked("Police policía", &["policia"]), "Police [policía]");
        assert_eq!(marked("", &["x"]), "");
        assert_eq!(marked("Nothing here", &[]), "Nothing here");
    }

    #[test]
    fn plain_text_bodies_split_into_paragraphs_at_blank_lines() {
        let cx = crate::pages::first_paint::tests::context("article");
        let mut w = Writer::new(&cx);
        text_body(&mut w, "One\nstill one\n  \n\nTwo <b>\n\n\n");
        assert_eq!(w.out, "<p>One\nstill one</p><p>Two &lt;b&gt;</p>");
    }

    #[test]
    fn markup_the_sanitiser_never_leaves_is_found() {
        assert!(!leaves_the_allow_list(
            r#"<p>Fine <a href="/x" rel="noopener">link</a> <img src="/a.svg" alt="" width="6"></p><figure></figure>"#
        ));
        assert!(
            !leaves_the_allow_list("<p>Ontario online: one=1</p>"),
            "words, not attributes"
        );
        for bad in [
            "<p>x</p><SCRIPT>alert(1)</SCRIPT>",
            r#"<img src="x" onerror="alert(1)">"#,
            r#"<img src=x ONLOAD=alert(1)>"#,
            r#"<a href="JavaScript:alert(1)">x</a>"#,
            "<iframe src=//evil></iframe>",
            "<style>body{}</style>",
        ] {
            assert!(leaves_the_allow_list(bad), "{bad}");
        }
    }

    #[test]
    fn hosts_are_shown_without_www() {
        assert_eq!(host_of("https://www.example.com/a?b"), "example.com");
        assert_eq!(host_of("http://news.example.org"), "news.example.org");
        assert_eq!(host_of("not a url"), "");
    }
}
