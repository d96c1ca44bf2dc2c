//! Each registered game's own wire mapping: its options message, its events, its observation
//! and its hand results. One module per game module of the engine.

mod calabresella;
mod chiamata;
mod tressette;

#[cfg(test)]
mod tests {
    use super::super::{WireError, rules_from_wire};
    use crate::v1;

    #[test]
    /// Out-of-range values, conflicting options, and one game's options given for another.
    fn bad_options_are_refused() {
        for bad in [
            v1::GameOptions::default(),
            v1::GameOptions {
                settings: Default::default(),
                game: 42,
                rules: None,
            },
            v1::GameOptions {
                settings: Default::default(),
                game: v1::Game::Calabresella as i32,
                rules: Some(v1::game_options::Rules::Calabresella(
                    v1::CalabresellaOptions {
                        players: Some(5),
                        ..Default::default()
                    },
                )),
            },
            v1::GameOptions {
                settings: Default::default(),
                game: v1::Game::Calabresella as i32,
                rules: Some(v1::game_options::Rules::Calabresella(
                    v1::CalabresellaOptions {
                        a_due: Some(true),
                        aperta: Some(true),
                        ..Default::default()
                    },
                )),
            },
            v1::GameOptions {
                settings: Default::default(),
                game: v1::Game::Tressette as i32,
                rules: Some(v1::game_options::Rules::Tressette(v1::TressetteOptions {
                    follow_suit_always: Some(true),
                    ..Default::default()
                })),
            },
            v1::GameOptions {
                settings: Default::default(),
                game: v1::Game::Tressette as i32,
                rules: Some(v1::game_options::Rules::Calabresella(Default::default())),
            },
            v1::GameOptions {
                settings: Default::default(),
                game: v1::Game::Calabresella as i32,
                rules: Some(v1::game_options::Rules::Tressette(Default::default())),
            },
        ] {
            assert!(
                matches!(rules_from_wire(&bad), Err(WireError::Options(_))),
                "{bad:?}"
            );
        }
    }
}
