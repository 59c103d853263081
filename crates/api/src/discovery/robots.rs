//! `/robots.txt` (D372): stories, places, publishers and categories are open to every
//! crawler; what is one reader's own, the API, sign-in and search results are not.

use domain::locale::Locale;
use std::fmt::Write;

/// Paths no crawler should walk, before the locale prefix: a reader's own pages and
/// the operator's (they answer with a sign-in redirect), sign-in itself, the API
/// (pages already carry what it says), and search results (endless and thin).
const CLOSED: [&str; 4] = ["/user", "/admin", "/search", "/setting"];
const CLOSED_EVERYWHERE: [&str; 3] = ["/api/", "/auth/", "/_app/"];

pub fn robots_txt(base: &str) -> String {
    let mut out = String::from("# Localwire: stories, cities, publishers and categories are open to crawlers.\n");
    out.push_str("User-agent: *\n");
    for path in CLOSED_EVERYWHERE {
        let _ = writeln!(out, "Disallow: {path}");
    }
    for locale in Locale::ALL {
        for path in CLOSED {
            let _ = writeln!(out, "Disallow: {}{path}", locale.path_prefix());
        }
    }
    let _ = write!(out, "\nSitemap: {base}/sitemap.xml\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules as a crawler reads them: the longest matching `Disallow` prefix wins,
    /// and nothing matching means allowed (RFC 9309).
    fn allowed(robots: &str, path: &str) -> bool {
        !robots
            .lines()
            .filter_map(|l| l.strip_prefix("Disallow: "))
            .any(|rule| path.starts_with(rule))
    }

    #[test]
    fn d372_robots_opens_stories_places_publishers_and_categories_in_every_language() {
        let robots = robots_txt("https://news.example");
        for path in [
            "/",
            "/article/42",
            "/es/article/42",
            "/fr/local/ottawa-6094817",
            "/media/7",
            "/category/politics",
            "/latest",
            "/today-in-history",
        ] {
            assert!(allowed(&robots, path), "{path} should be open");
        }
    }

    #[test]
    fn d372_robots_closes_readers_pages_the_api_sign_in_and_search_results() {
        let robots = robots_txt("https://news.example");
        for path in [
            "/user/favorites",
            "/es/user",
            "/fr/admin",
            "/api/news/feeds?channel=latest",
            "/auth/google/start",
            "/search/news?q=council",
            "/fr/search",
            "/setting/block-list",
        ] {
            assert!(!allowed(&robots, path), "{path} should be closed");
        }
    }

    #[test]
    fn d372_robots_names_the_sitemap_index_at_the_public_address() {
        let robots = robots_txt("https://news.example");
        assert!(robots.starts_with("# Localwire"));
        assert!(robots.contains("User-agent: *\n"));
        assert!(robots.ends_with("\nSitemap: https://news.example/sitemap.xml\n"));
    }
}
