//! Wikipedia's on-this-day feed (`/api/rest_v1/feed/onthisday/all/{MM}/{DD}`) read into
//! the few fields the app shows. Unknown fields are ignored; a missing section is empty.

use serde::Deserialize;

/// The five sections, in the order the page shows them.
pub const SECTIONS: [Section; 5] = [
    Section::Selected,
    Section::Events,
    Section::Births,
    Section::Deaths,
    Section::Holidays,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Section {
    Selected,
    Events,
    Births,
    Deaths,
    Holidays,
}

/// One day of one language, as the feed has it.
#[derive(Debug, Default, Deserialize)]
pub struct FeedDay {
    #[serde(default)]
    pub selected: Vec<FeedEntry>,
    #[serde(default)]
    pub events: Vec<FeedEntry>,
    #[serde(default)]
    pub births: Vec<FeedEntry>,
    #[serde(default)]
    pub deaths: Vec<FeedEntry>,
    #[serde(default)]
    pub holidays: Vec<FeedEntry>,
}

impl FeedDay {
    pub fn section(&self, s: Section) -> &[FeedEntry] {
        match s {
            Section::Selected => &self.selected,
            Section::Events => &self.events,
            Section::Births => &self.births,
            Section::Deaths => &self.deaths,
            Section::Holidays => &self.holidays,
        }
    }

    pub fn is_empty(&self) -> bool {
        SECTIONS.iter().all(|s| self.section(*s).is_empty())
    }
}

#[derive(Debug, Deserialize)]
pub struct FeedEntry {
    #[serde(default)]
    pub text: String,
    /// Absent on holidays.
    #[serde(default)]
    pub year: Option<i32>,
    #[serde(default)]
    pub pages: Vec<FeedPage>,
}

#[derive(Debug, Deserialize)]
pub struct FeedPage {
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub titles: Option<FeedTitles>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub extract: Option<String>,
    #[serde(default)]
    pub thumbnail: Option<FeedImage>,
    #[serde(default)]
    pub content_urls: Option<FeedUrls>,
}

#[derive(Debug, Deserialize)]
pub struct FeedTitles {
    #[serde(default)]
    pub normalized: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FeedImage {
    pub source: String,
    #[serde(default)]
    pub width: Option<u32>,
    #[serde(default)]
    pub height: Option<u32>,
}

#[derive(Debug, Deserialize)]
pub struct FeedUrls {
    #[serde(default)]
    pub desktop: Option<FeedUrl>,
}

#[derive(Debug, Deserialize)]
pub struct FeedUrl {
    #[serde(default)]
    pub page: Option<String>,
}

impl FeedPage {
    /// "Battle of Gettysburg" rather than "Battle_of_Gettysburg".
    pub fn display_title(&self) -> String {
        self.titles
            .as_ref()
            .and_then(|t| t.normalized.clone())
            .unwrap_or_else(|| self.title.replace('_', " "))
    }

    pub fn url(&self) -> Option<&str> {
        self.content_urls.as_ref()?.desktop.as_ref()?.page.as_deref()
    }
}

/// Parses a feed answer.
pub fn parse(body: &[u8]) -> Result<FeedDay, serde_json::Error> {
    serde_json::from_slice(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_in_the_feeds_format_parses_with_every_section() {
        let day = parse(include_bytes!(
            "../../../../data/demo/onthisday/onthisday-en-07-01.json"
        ))
        .unwrap();
        assert_eq!(day.selected.len(), 3);
        assert!(SECTIONS.iter().all(|s| !day.section(*s).is_empty()));
        let page = &day.selected[0].pages[0];
        assert_eq!(page.display_title(), "Canadian Confederation");
        assert_eq!(page.url(), Some("https://en.wikipedia.org/wiki/Canadian_Confederation"));
        assert!(page.thumbnail.is_some());
        assert_eq!(day.holidays[0].year, None);
    }
}
