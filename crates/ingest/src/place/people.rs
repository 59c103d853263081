//! People named like cities ("Mayor Jackson", "Abraham Lincoln", "Regina Morales") are
//! not places (D215).

use super::context::AFTER_NOT_CITY;
use super::words::{FoldedWords, capitalized, sentence_start, title_case};
use rustc_hash::FxHashSet;
use std::sync::LazyLock;

/// Common given names and surnames that are also names of US or Canadian cities. Written
/// by the Localwire authors. A bare one is a person when a title or another name stands
/// next to it ("Council member Tamika Jackson", "Abraham Lincoln", "Regina Morales") or
/// when a verb of speech follows; then it is a person everywhere in the story.
pub(super) const PERSON_NAMES: &[&str] = &[
    "jackson",
    "lincoln",
    "madison",
    "pierre",
    "regina",
    "victoria",
    "savannah",
    "tyler",
    "austin",
    "dallas",
    "houston",
    "charlotte",
    "orlando",
    "eugene",
    "helena",
    "florence",
    "elizabeth",
    "warren",
    "troy",
    "gary",
    "marion",
    "clinton",
    "franklin",
    "chester",
    "kent",
    "irving",
    "lawrence",
    "douglas",
    "jordan",
    "chandler",
    "gilbert",
    "norman",
    "quincy",
    "sherman",
    "bryan",
    "allen",
    "murray",
    "taylor",
    "hudson",
    "monroe",
    "jefferson",
    "harrison",
    "lafayette",
    "beaumont",
    "denton",
    "layton",
    "sandy",
    "camden",
];

pub(super) static PERSON_NAME_SET: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| PERSON_NAMES.iter().copied().collect());

/// Titles before a person's name (folded), in en, fr and es.
pub(super) const PERSON_TITLES: &[&str] = &[
    "mayor",
    "sen",
    "senator",
    "rep",
    "gov",
    "governor",
    "dr",
    "mr",
    "mrs",
    "ms",
    "president",
    "justice",
    "judge",
    "coach",
    "officer",
    "sgt",
    "det",
    "lt",
    "capt",
    "gen",
    "rev",
    "singer",
    "actor",
    "actress",
    "quarterback",
    "councillor",
    "councilor",
    "member",
    "minister",
    "premier",
    "chief",
    "m",
    "mme",
    "maire",
    "mairesse",
    "depute",
    "deputee",
    "ministre",
    "juge",
    "chanteur",
    "chanteuse",
    "comedien",
    "comedienne",
    "sr",
    "sra",
    "srta",
    "dra",
    "alcalde",
    "alcaldesa",
    "concejal",
    "concejala",
    "senador",
    "senadora",
    "gobernador",
    "gobernadora",
    "juez",
    "jueza",
    "presidente",
    "presidenta",
    "cantante",
    "actriz",
    "entrenador",
    "don",
    "dona",
];

/// Verbs of speech after a name: "Jackson said", "Lincoln dijo".
pub(super) const SAID: &[&str] = &[
    "said", "says", "told", "added", "dijo", "afirmo", "declaro", "explico", "dice", "affirme", "explique", "estime",
    "declare",
];

/// Words before a name that belong to the place, not to a person ("Downtown Jackson").
pub(super) const PLACE_PREFIXES: &[&str] = &[
    "downtown", "metro", "greater", "old", "upper", "lower", "north", "south", "east", "west", "central", "northern",
    "southern", "eastern", "western", "suburban", "rural", "vieux", "grand", "gran", "the", "in", "at", "el", "la",
    "le", "los", "las", "les", "en", "a", "de", "of",
];

/// [`PERSON_NAMES`] used as a person's name anywhere in the story: after a title
/// ("Mayor Jackson", "le député Pierre Gagnon"), after a capitalised given name inside a
/// sentence ("Abraham Lincoln"), or before a verb of speech ("Jackson said").
pub(super) fn people(parts: &[&FoldedWords<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    for fw in parts {
        let mut cased = None;
        for i in 0..fw.words.len() {
            let f = fw.folded(i);
            if !capitalized(fw.words[i].text) || !PERSON_NAME_SET.contains(f) || out.iter().any(|o| o == f) {
                continue;
            }
            let previous = i.checked_sub(1).map(|p| (fw.folded(p), capitalized(fw.words[p].text)));
            let titled = previous.is_some_and(|(p, _)| PERSON_TITLES.contains(&p));
            let given_name = previous.is_some_and(|(p, cap)| {
                cap && !PLACE_PREFIXES.contains(&p)
                    && fw.text.get(fw.words[i - 1].end..fw.words[i].start) == Some(" ")
                    && !sentence_start(fw, i - 1)
                    && !*cased.get_or_insert_with(|| title_case(fw))
            });
            let next = |k: usize| if i + k < fw.words.len() { fw.folded(i + k) } else { "" };
            let speaks = SAID.contains(&next(1)) || (next(1) == "a" && matches!(next(2), "dit" | "declare"));
            if titled || given_name || speaks {
                out.push(f.to_string());
            }
        }
    }
    out
}

/// Whether a [`PERSON_NAMES`] word `i` is followed by a surname here ("Savannah Price",
/// "Regina Morales"): a capitalised word right after it, in a part not in Title Case.
pub(super) fn followed_by_surname(fw: &FoldedWords<'_>, i: usize) -> bool {
    let Some(next) = fw.words.get(i + 1) else {
        return false;
    };
    let gap = fw.text.get(fw.words[i].end..next.start).unwrap_or("");
    capitalized(next.text)
        && gap == " "
        && !AFTER_NOT_CITY.contains(&fw.folded(i + 1))
        && !matches!(
            fw.folded(i + 1),
            "city" | "county" | "police" | "public" | "airport" | "area" | "region"
        )
        && !title_case(fw)
}
