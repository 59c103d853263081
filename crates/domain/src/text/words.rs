//! The words of a search query, split and folded as both search engines index text.

use super::fold;
use super::fold::is_apostrophe;

/// French elided words: `l'`, `d'`, `j'`, `qu'`, `n'`, `s'`, `c'`, `m'`, `t'` (D190).
const FRENCH_ELISIONS: [&str; 9] = ["l", "d", "j", "qu", "n", "s", "c", "m", "t"];
/// English clitics after an apostrophe: `'s`, `'t`, `'d`, `'ll`, `'re`, `'ve`, `'m`.
const ENGLISH_CLITICS: [&str; 7] = ["s", "t", "d", "ll", "re", "ve", "m"];

/// The words of a news search query, folded like [`fold`], split where both search
/// engines split indexed text: at apostrophes. An elided French word before an
/// apostrophe (`l'Outaouais`, `d’Ottawa`, `qu'il`) and an English clitic after one
/// (`Ottawa's`, `don't`) are left out, so a query finds what its plain words find
/// (`l'Outaouais` = `Outaouais`). Other parts stay (`aujourd'hui` → `aujourd hui`, as
/// the engines index it).
pub fn search_words(query: &str) -> Vec<String> {
    let mut words = Vec::new();
    for raw in query.split(char::is_whitespace) {
        let parts: Vec<String> = raw.split(is_apostrophe).map(fold).collect();
        let last = parts.len() - 1;
        for (i, part) in parts.iter().enumerate() {
            let part_words: Vec<&str> = part.split(' ').filter(|w| !w.is_empty()).collect();
            for (j, word) in part_words.iter().enumerate() {
                let elided = i < last && j + 1 == part_words.len() && FRENCH_ELISIONS.contains(word);
                let clitic = i > 0 && i == last && j == 0 && ENGLISH_CLITICS.contains(word);
                if !elided && !clitic {
                    words.push(word.to_string());
                }
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(q: &str) -> Vec<String> {
        search_words(q)
    }

    #[test]
    fn french_elision_is_dropped_from_search_words() {
        assert_eq!(words("l'Outaouais"), ["outaouais"]);
        assert_eq!(words("d’Ottawa"), ["ottawa"]);
        assert_eq!(words("réseaux d'autobus"), ["reseaux", "autobus"]);
        assert_eq!(
            words("Qu’il J'ai N'est S'il C'est M'a T'as"),
            ["il", "ai", "est", "il", "est", "a", "as"]
        );
    }

    #[test]
    fn english_clitics_are_dropped_and_other_apostrophes_split() {
        assert_eq!(words("Ottawa's mayor"), ["ottawa", "mayor"]);
        assert_eq!(words("don't"), ["don"]);
        assert_eq!(words("aujourd'hui"), ["aujourd", "hui"]);
        assert_eq!(words("Île-d'Orléans"), ["ile", "orleans"]);
        assert_eq!(words("  Montréal, école  "), ["montreal", "ecole"]);
        assert_eq!(words("'"), Vec::<String>::new());
    }
}
