//! Players' names: what a name may hold, when two names are the same, and which names are kept
//! for the server's own players.
//!
//! Two names are the same when their normal forms are equal: Unicode NFKC, lower case, and
//! white space of any kind collapsed to single spaces ("Ｈｅｕｒｉｓｔｉｃ  Bot" is "heuristic
//! bot"). A name may not hold control characters or invisible formatting characters (bidi
//! overrides and isolates, zero-width characters): those make one name display as another.

use unicode_normalization::UnicodeNormalization;

/// Whether `c` is a control character or an invisible formatting one (Unicode's `Cf`
/// characters that change how text around them displays, and the byte-order mark).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// Whether `s` holds no control or invisible formatting character.
pub fn printable(s: &str) -> bool {
    !s.chars().any(is_hidden)
}

/// The form names are compared in: NFKC, lower case, white space collapsed.
pub fn normal(name: &str) -> String {
    let lower: String = name.nfkc().flat_map(char::to_lowercase).collect();
    let folded: String = lower.nfkc().collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Names a person may not take: the server's own players ("dummy", "guest") and the built-in
/// bots, bare ("heuristic"), as seats show them ("heuristic bot") or with parameters
/// ("pimc:ms=50 bot").
pub fn reserved(name: &str) -> bool {
    let n = normal(name);
    if matches!(n.as_str(), "dummy" | "guest") {
        return true;
    }
    let base = n.strip_suffix(" bot").unwrap_or(&n).trim_end();
    calabresella_engine::bots::BOT_NAMES.iter().any(|bot| {
        base == *bot
            || base
                .strip_prefix(bot)
                .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(' '))
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
            "\u{FF50}imc bot",
            "dummy",
            "Guest",
            "heuristic  bot",
        ] {
            assert!(reserved(s), "{s:?}");
        }
        for s in [
            "heuristics",
            "randomly",
            "Pimcolo",
            "my heuristic bot",
            "bottom",
            "robot",
        ] {
            assert!(!reserved(s), "{s:?}");
        }
    }
}
