//! Players' names: what a name may hold, when two names are the same, and which names are kept
//! for the server's own players.
//!
//! Two names are the same when their normal forms are equal: Unicode NFKC, lower case, and
//! white space of any kind collapsed to single spaces ("Ｈｅｕｒｉｓｔｉｃ  Bot" is "heuristic
//! bot"). A name may not hold control characters or invisible ones (bidi overrides and
//! isolates, zero-width characters: Unicode's default-ignorable code points): those make one
//! name display as another. Reserved names are compared by their confusable skeleton (Unicode
//! TS #39, from `unicode-security`), so look-alikes in other scripts are refused too.

use unicode_normalization::UnicodeNormalization;
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

/// Whether `c` is a control character or an invisible one: Unicode's default-ignorable code
/// points (bidi overrides and isolates, zero-width characters, fillers, variation selectors,
/// tags), line and paragraph separators, the blank braille pattern, and the Egyptian
/// hieroglyph format controls (invisible formatting that is not default-ignorable).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || c.identifier_type() == Some(IdentifierType::Default_Ignorable)
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{2800}' | '\u{13430}'..='\u{1343F}'
        )
}

/// Whether `s` holds no control or invisible character.
pub fn printable(s: &str) -> bool {
    !s.chars().any(is_hidden)
}

/// The form names are compared in: NFKC, lower case, white space collapsed.
pub fn normal(name: &str) -> String {
    let lower: String = name.nfkc().flat_map(char::to_lowercase).collect();
    let folded: String = lower.nfkc().collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a name looks like: its normal form's confusable skeleton (Unicode TS #39), in lower
/// case, so that Cyrillic "р" and Latin "p", or "0" and "o", look alike.
pub fn looks(name: &str) -> String {
    unicode_security::skeleton(&normal(name))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Names a person may not take, compared by how they look: the server's own players
/// ("dummy", "guest") and the built-in bots, bare ("heuristic"), as seats show them
/// ("heuristic bot") or with parameters ("pimc:ms=50 bot").
pub fn reserved(name: &str) -> bool {
    let n = looks(name);
    if ["dummy", "guest"].iter().any(|r| n == looks(r)) {
        return true;
    }
    calabresella_engine::bots::BOT_NAMES.iter().any(|bot| {
        n == looks(bot)
            || n == looks(&format!("{bot} bot"))
            || n.starts_with(&looks(&format!("{bot}:")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_have_one_normal_form() {
        let forms = [
            "heuristic bot",
            "Heuristic Bot",
            "HEURISTIC\u{00A0}BOT",
            "\u{FF28}euristic  bot",
            "heuristic\u{2003}bot",
        ];
        for f in forms {
            assert_eq!(normal(f), "heuristic bot", "{f:?}");
        }
        assert_ne!(normal("heuristic bot"), normal("heuristik bot"));
        // Compatibility forms fold: the ligature, the full stop, the superscript.
        assert_eq!(normal("\u{FB01}ve"), "five");
        assert_eq!(normal("x\u{00B2}"), "x2");
    }

    #[test]
    fn hidden_characters_are_refused() {
        for s in [
            "heuristic\u{202E} bot",
            "a\u{200B}b",
            "bot\u{2066}",
            "tab\there",
            "\u{FEFF}name",
            "a\u{E0041}",
            "line\u{2028}break",
            "heuristic\u{2800}bot",
            "heuristic\u{1BCA0} bot",
            "a\u{13430}b",
            "x\u{FE0F}",
        ] {
            assert!(!printable(s), "{s:?}");
        }
        for s in [
            "Maria Rossi",
            "Željko",
            "ἀλέξανδρος",
            "王小明",
            "O'Brien-Smith 3",
        ] {
            assert!(printable(s), "{s:?}");
        }
    }

    #[test]
    fn built_in_bot_names_are_reserved_in_every_form() {
        for s in [
            "heuristic bot",
            "Heuristic",
            "RANDOM BOT",
            "pimc",
            "pimc bot",
            "pimc:worlds=6:ms=40 bot",
            "pimc:ms=50",
            "Best",
            "best bot",
            "ISMCTS:ms=80 bot",
            "\u{FF50}imc bot",
            "dummy",
            "Guest",
            "heuristic  bot",
            "\u{0440}imc bot",
            "rand0m bot",
            "heuristic\u{1BCA0} bot",
        ] {
            assert!(reserved(s) || !printable(s), "{s:?}");
        }
        for s in [
            "heuristics",
            "randomly",
            "Pimcolo",
            "my heuristic bot",
            "bottom",
            "robot",
            "Random Rossi",
            "Pimc Team",
            "Heuristic Hank",
        ] {
            assert!(!reserved(s), "{s:?}");
        }
    }
}
