//! A session's label for the account page, from the User-Agent: "Chrome on Linux".

/// Browser and system, each from a short ordered list (first match wins: Edge and Opera
/// also say "Chrome", Chrome also says "Safari").
pub fn session_label(user_agent: &str) -> String {
    const BROWSERS: [(&str, &str); 7] = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chromium/", "Chromium"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
        ("okhttp", "Android app"),
    ];
    const SYSTEMS: [(&str, &str); 7] = [
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iPadOS"),
        ("CrOS", "ChromeOS"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("Linux", "Linux"),
    ];
    let browser = BROWSERS
        .iter()
        .find(|(needle, _)| user_agent.contains(needle))
        .map(|(_, name)| *name);
    let system = SYSTEMS
        .iter()
        .find(|(needle, _)| user_agent.contains(needle))
        .map(|(_, name)| *name);
    match (browser, system) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.to_string(),
        (None, Some(s)) => s.to_string(),
        (None, None) => "Unknown device".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_browser_and_system() {
        let cases = [
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
                "Safari on iOS",
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0",
                "Firefox on macOS",
            ),
            ("okhttp/4.12.0", "Android app"),
            ("", "Unknown device"),
        ];
        for (ua, want) in cases {
            assert_eq!(session_label(ua), want, "{ua}");
        }
    }
}
