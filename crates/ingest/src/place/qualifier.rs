//! What follows a name to say its state or province (", Maine", ", N.Y.", ", en Floride")
//! or a country abroad (", France").

use super::gazetteer::QUALIFIERS;
use super::words::words;
use domain::text::fold;

/// Countries (in en, fr, es) whose name after a city means "not ours".
pub(super) const FOREIGN: &[&str] = &[
    "france",
    "england",
    "uk",
    "u k",
    "united kingdom",
    "britain",
    "scotland",
    "ireland",
    "mexico",
    "italy",
    "spain",
    "germany",
    "greece",
    "portugal",
    "japan",
    "china",
    "australia",
    "russia",
    "egypt",
    "israel",
    "brazil",
    "jamaica",
    "belgium",
    "switzerland",
    "puerto rico",
    "cuba",
    "colombia",
    "mexique",
    "italie",
    "italia",
    "espagne",
    "espana",
    "allemagne",
    "alemania",
    "angleterre",
    "inglaterra",
    "royaume uni",
    "reino unido",
    "irlande",
    "irlanda",
    "ecosse",
    "escocia",
    "japon",
    "chine",
    "belgique",
    "belgica",
    "suisse",
    "suiza",
    "colombie",
    "porto rico",
    "haiti",
];

/// What a name's qualifier says: the state or province, or a country abroad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Qualifier {
    Admin(&'static str),
    Abroad,
}

/// Words between a city and its state in French and Spanish and long English forms
/// ("Kelowna, en Colombie-Britannique", "Plattsburgh, dans l'État de New York", "in the
/// state of Washington"); skipped when lower case (or the "État"/"estado"/"state" word).
pub(super) const QUALIFIER_LEAD: [&str; 17] = [
    "en", "au", "aux", "a", "dans", "in", "the", "of", "de", "la", "le", "el", "del", "province", "etat", "estado",
    "state",
];

/// What follows a name: ", Maine" → Admin("ME"), ", N.Y." → Admin("NY"), ", en Floride"
/// → Admin("FL"), " (Ontario)" → Admin("ON"), ", France" → Abroad; with the byte offset in
/// `text` where the qualifier ends, so its words are not read again as places.
pub(super) fn qualifier(text: &str, after: usize) -> Option<(Qualifier, usize)> {
    let rest = text.get(after..)?;
    let skip = if rest.starts_with(',') {
        1
    } else if rest.starts_with(" (") {
        2
    } else if rest.starts_with(" in ") {
        4
    } else {
        return None;
    };
    let start = after + skip;
    // A qualifier is a few words: look no further than 60 bytes.
    let mut end = (start + 60).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let window = &text[start..end];
    let ws = words(window);
    let folds: Vec<String> = ws.iter().take(7).map(|w| fold(w.text)).collect();
    let lead = ws
        .iter()
        .zip(&folds)
        .take(4)
        .take_while(|(w, f)| {
            QUALIFIER_LEAD.contains(&f.as_str())
                && (w.text.chars().all(char::is_lowercase) || matches!(f.as_str(), "etat" | "estado" | "state"))
        })
        .count();
    let (ws, folds) = (&ws[lead..], &folds[lead..]);
    let mut candidate = String::new();
    for n in (1..=folds.len().min(3)).rev() {
        candidate.clear();
        for f in folds[..n].iter().filter(|f| !f.is_empty()) {
            if !candidate.is_empty() {
                candidate.push(' ');
            }
            candidate.push_str(f);
        }
        let qualifier_end = start + ws[n - 1].end;
        if FOREIGN.contains(&candidate.as_str()) {
            return Some((Qualifier::Abroad, qualifier_end));
        }
        // "Portland, or", "Halifax, on": a postal code is written in capitals.
        let lower_two_letters = n == 1 && candidate.len() == 2 && !ws[0].text.chars().any(char::is_uppercase);
        if let Some(code) = QUALIFIERS.get(&candidate).filter(|_| !lower_two_letters) {
            return Some((Qualifier::Admin(code), qualifier_end));
        }
    }
    None
}
