//! The words of a title or text, each folded once, and what their case says: where a
//! name may start, where a sentence does.

use super::gazetteer::NAME_WORDS;
use domain::text::fold_into;

pub(super) struct Word<'a> {
    pub(super) text: &'a str,
    pub(super) start: usize,
    pub(super) end: usize,
}

pub(super) fn words(text: &str) -> Vec<Word<'_>> {
    let mut out: Vec<Word<'_>> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let part = c.is_alphanumeric() || c == '\'' || c == '’' || c == '.' || c == '-';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Word {
                    text: text[s..i].trim_end_matches('.'),
                    start: s,
                    end: i,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Word {
            text: text[s..].trim_end_matches('.'),
            start: s,
            end: text.len(),
        });
    }
    // French elision: "d'Ottawa", "l’Outaouais" → the name after the apostrophe.
    for w in &mut out {
        for prefix in ["d'", "l'", "d’", "l’", "D'", "L'", "D’", "L’"] {
            if let Some(rest) = w.text.strip_prefix(prefix)
                && rest.chars().next().is_some_and(char::is_uppercase)
            {
                w.start += prefix.len();
                w.text = rest;
            }
        }
    }
    out
}

/// A text's words with each word folded once (into one buffer).
pub(super) struct FoldedWords<'a> {
    pub(super) text: &'a str,
    pub(super) words: Vec<Word<'a>>,
    buffer: String,
    /// Each word's fold, as a range of `buffer`.
    ranges: Vec<(usize, usize)>,
    /// Whether every word of the fold ("Trois-Rivières" folds to two) is in
    /// [`NAME_WORDS`]; worked out only for words that can be part of a name (capitalised,
    /// joiners, "nyc"), false for the others.
    pub(super) in_names: Vec<bool>,
}

impl<'a> FoldedWords<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        let words = words(text);
        let mut buffer = String::with_capacity(text.len());
        let ranges = words
            .iter()
            .map(|w| {
                let start = buffer.len();
                fold_into(w.text, &mut buffer);
                (start, buffer.len())
            })
            .collect();
        let mut folded = Self {
            text,
            words,
            buffer,
            ranges,
            in_names: Vec::new(),
        };
        folded.in_names = (0..folded.words.len())
            .map(|i| {
                let (w, f) = (folded.words[i].text, folded.folded(i));
                (capitalized(w) || joiner(w) || f == "nyc")
                    && (f.is_empty() || f.split(' ').all(|w| NAME_WORDS.contains(w)))
            })
            .collect();
        folded
    }

    /// The fold of word `i`.
    pub(super) fn folded(&self, i: usize) -> &str {
        let (start, end) = self.ranges[i];
        &self.buffer[start..end]
    }

    /// `fold` of words `from..to` joined by spaces (empty folds vanish in the join),
    /// written into `out`.
    pub(super) fn span_fold(&self, from: usize, to: usize, out: &mut String) {
        out.clear();
        for f in (from..to).map(|i| self.folded(i)).filter(|f| !f.is_empty()) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(f);
        }
    }
}

pub(super) fn capitalized(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Joiners allowed inside a multi-word name (Saint-Jean-sur-Richelieu is one word;
/// "Rouyn Noranda", "Baie des Chaleurs" are not).
pub(super) fn joiner(word: &str) -> bool {
    matches!(
        word,
        "de" | "des" | "du" | "la" | "le" | "sur" | "of" | "del" | "los" | "las" | "on"
    )
}

/// Whether part `fw` is written in Title Case (most longer words capitalised), where a
/// capital letter says nothing about names.
pub(super) fn title_case(fw: &FoldedWords<'_>) -> bool {
    let long: Vec<&Word<'_>> = fw.words.iter().filter(|w| w.text.chars().count() >= 4).collect();
    long.len() >= 3 && long.iter().filter(|w| capitalized(w.text)).count() * 5 >= long.len() * 4
}

/// Whether word `i` of `fw` starts a sentence (or the part).
pub(super) fn sentence_start(fw: &FoldedWords<'_>, i: usize) -> bool {
    i == 0
        || fw
            .text
            .get(fw.words[i - 1].start..fw.words[i].start)
            .is_none_or(|between| {
                let between = between.trim_start_matches(|c: char| c.is_alphanumeric());
                between.contains(['.', '!', '?', ':', '"', '“', '«', '—'])
            })
}
