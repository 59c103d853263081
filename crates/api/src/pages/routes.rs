//! The route table (SPEC §2), read from the same file the React router is built from
//! (`web/src/routes/routes.json`, decision D1).

use serde::Deserialize;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RouteDef {
    pub name: String,
    /// Segments; `:name` matches one segment, a final `*` matches the rest.
    pub path: String,
    /// Message keys.
    pub title: String,
    pub description: String,
    /// Needs a signed-in (non-guest) user (SPEC §6.2).
    #[serde(default)]
    pub auth: bool,
    /// The page's list can be followed as a feed (D376).
    #[serde(default)]
    pub feed: Option<FeedOf>,
    /// The server renders this screen into the page (D156, D424).
    #[serde(default)]
    pub first_screen: bool,
}

/// Which list a page's feed follows (D376).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FeedOf {
    /// The page's own list: the feed's address is `/feeds/{format}` and the page's.
    Page,
    /// The reader's city (home, `/local`): the feed is the city page's, `/local/{cityId}`.
    ReaderCity,
}

pub static ROUTES: LazyLock<Vec<RouteDef>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../../web/src/routes/routes.json")).unwrap_or_else(|e| {
        tracing::error!(error = %e, "web/src/routes/routes.json is not a valid route table");
        Vec::new()
    })
});

/// A matched route and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteMatch {
    pub route: &'static RouteDef,
    pub params: Vec<(String, String)>,
}

/// Match a decoded path (without locale prefix) against the table.
pub fn match_route(path: &str) -> Option<RouteMatch> {
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    ROUTES.iter().find_map(|route| {
        let pattern: Vec<&str> = route.path.split('/').filter(|s| !s.is_empty()).collect();
        let mut params = Vec::new();
        for (i, p) in pattern.iter().enumerate() {
            if *p == "*" {
                let rest = segments.get(i..).unwrap_or_default().join("/");
                if rest.is_empty() {
                    return None;
                }
                params.push(("path".to_string(), rest));
                return Some(RouteMatch { route, params });
            }
            let segment = segments.get(i)?;
            match p.strip_prefix(':') {
                Some(name) => params.push((name.to_string(), (*segment).to_string())),
                None if p == segment => {}
                None => return None,
            }
        }
        (segments.len() == pattern.len()).then_some(RouteMatch { route, params })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(path: &str) -> Option<&'static str> {
        match_route(path).map(|m| m.route.name.as_str())
    }

    #[test]
    fn spec_2_every_route_of_the_table_is_registered() {
        let cases = [
            ("/", "home"),
            ("/user", "user"),
            ("/user/read", "user-read"),
            ("/user/reaction", "user-reaction"),
            ("/user/favorites", "user-favorites"),
            ("/user/following", "user-following"),
            ("/user/notification", "user-notification"),
            ("/local", "local"),
            ("/local/ottawa", "local-city"),
            ("/latest", "latest"),
            ("/top-news", "top-news"),
            ("/search", "search"),
            ("/search/news", "search-news"),
            ("/search/media", "search-media"),
            ("/weather", "weather"),
            ("/realtime-trends", "realtime-trends"),
            ("/today-in-history", "today-in-history"),
            ("/article/123", "article"),
            ("/share/a/b", "share"),
            ("/media/abc", "media"),
            ("/special/elections", "special"),
            ("/category/sports", "category"),
            ("/location/quebec", "location"),
            ("/setting/block-list", "setting-block-list"),
            ("/setting/following-tags", "setting-following-tags"),
            ("/setting/explore-channels", "setting-explore-channels"),
            ("/dlink", "dlink"),
            ("/demos/dlink", "demos-dlink"),
            ("/demos/article", "demos-article"),
            // D340: the operator's screens, the one route beyond the spec's table.
            ("/admin", "admin"),
        ];
        for (path, want) in cases {
            assert_eq!(name(path), Some(want), "{path}");
        }
        assert_eq!(ROUTES.len(), cases.len(), "no route without a test");
    }

    #[test]
    fn spec_2_22_unmatched_paths_do_not_match() {
        for path in [
            "/nope",
            "/article",
            "/article/1/2",
            "/share",
            "/user/settings",
            "/setting",
        ] {
            assert_eq!(name(path), None, "{path}");
        }
    }

    #[test]
    fn params_are_captured_and_trailing_slash_ignored() {
        let m = match_route("/article/42/").unwrap();
        assert_eq!(m.params, vec![("id".to_string(), "42".to_string())]);
        let m = match_route("/share/news/42").unwrap();
        assert_eq!(m.params, vec![("path".to_string(), "news/42".to_string())]);
    }

    #[test]
    fn spec_6_2_only_user_routes_need_a_signed_in_user() {
        // D340: and the operator's /admin (the API then answers 403 to non-operators).
        for route in ROUTES.iter() {
            assert_eq!(
                route.auth,
                route.path == "/user" || route.path.starts_with("/user/") || route.path == "/admin",
                "{}",
                route.path
            );
        }
    }
}
