//! Adding publishers by hand: one feed, or an OPML list. The command line (`localwire feeds
//! add`, `import-opml`) and the operator's screen (`/api/admin/feeds/*`, D336) share these,
//! so a feed added either way is checked the same way. Errors are sentences that say what
//! to fix.

use crate::fetch::{FetchOutcome, FetchPolicy, Fetcher, read_file_feed};
use crate::opml::OpmlPublisher;
use crate::parse::parse_feed;
use crate::publishers::{self, PublisherInput};
use store::content::PublisherFeeds;
use url::Url;

/// The feed's own title, read from the feed: the publisher's name when none is given.
/// `file://` feeds are read from disk (the command line and the demo only; the fetcher
/// refuses them).
pub async fn feed_title(fetcher: &Fetcher, url: &Url) -> Result<String, String> {
    let bytes = match url.scheme() {
        "file" => {
            let path = url.to_file_path().map_err(|()| format!("{url} is not a local path"))?;
            read_file_feed(&path, FetchPolicy::default().max_body_bytes)
                .await
                .map_err(|e| e.to_string())?
        }
        _ => match fetcher
            .fetch(url, &Default::default())
            .await
            .map_err(|e| e.to_string())?
        {
            FetchOutcome::Fetched { body, .. } => body,
            FetchOutcome::NotModified { .. } => return Err(format!("{url} answered 304 to a first request")),
        },
    };
    let feed = parse_feed(&bytes, Some(url.as_str())).map_err(|e| format!("{url} is not a feed we can read: {e}"))?;
    let title = feed.title.trim().to_string();
    if title.is_empty() {
        return Err(format!("the feed at {url} has no title; give the publisher's name"));
    }
    Ok(title)
}

/// Check every outline of an OPML list. Any invalid publisher fails the whole list
/// (nothing is imported) with one line per problem.
pub fn publishers_from_opml(list: &[OpmlPublisher]) -> Result<Vec<PublisherFeeds>, String> {
    let mut ok = Vec::new();
    let mut problems = Vec::new();
    for p in list {
        match publishers::to_store(&PublisherInput::from(p)) {
            Ok(feeds) => ok.push(feeds),
            Err(e) => problems.push(format!("  {} ({}): {e}", p.name, p.feed_url)),
        }
    }
    if !problems.is_empty() {
        return Err(format!(
            "nothing was imported; fix these outlines and run the import again:\n{}",
            problems.join("\n")
        ));
    }
    Ok(publishers::merge(ok))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opml::{NAMESPACE, parse_opml};

    #[test]
    fn d364_an_opml_home_or_icon_that_is_not_http_is_dropped() {
        let text = format!(
            r#"<opml version="2.0" xmlns:localwire="{NAMESPACE}"><head/><body>
<outline text="Script" xmlUrl="https://a.example/rss" htmlUrl="javascript:alert(1)" localwire:icon="data:image/svg+xml,&lt;svg/&gt;"/>
<outline text="File" xmlUrl="https://b.example/rss" localwire:home="file:///etc/passwd" localwire:icon="javascript:alert(2)"/>
<outline text="Good" xmlUrl="https://c.example/rss" htmlUrl="https://c.example/" localwire:icon="https://c.example/i.png"/>
</body></opml>"#
        );
        let parsed = parse_opml(text.as_bytes()).unwrap();
        let list = publishers_from_opml(&parsed.publishers).unwrap();
        let got: Vec<_> = list
            .iter()
            .map(|p| {
                (
                    p.media.name.as_str(),
                    p.media.home_url.as_str(),
                    p.media.icon_url.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("Script", "", ""),
                ("File", "", ""),
                ("Good", "https://c.example/", "https://c.example/i.png")
            ]
        );
    }
}
