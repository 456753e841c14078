//! Game records, appended and flushed as each game ends: a plain text line per game, and
//! GGF for Othello (the format Othello servers and GUIs read).

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::engine::Setup;
use super::referee::{Ending, TimeControl, apply_setup};
use super::{Played, ending_text, result_text};
use crate::game::Side;
use crate::game::othello::{Othello, Rule};
use crate::game::variant::Variant;

pub struct Appender {
    file: File,
}

impl Appender {
    /// Opens `path` for appending (through links; only a regular file, see
    /// [`crate::files::open_append`]).
    pub fn open(path: &Path) -> Result<Appender, String> {
        let file = crate::files::open_append(path)?;
        Ok(Appender { file })
    }

    /// Appends the line and its newline in one write, so a kill leaves at most a last
    /// line without its newline (which readers of JSON lines drop as unfinished).
    pub fn append(&mut self, line: &str) -> Result<(), String> {
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| e.to_string())
    }
}

/// `game <n> variant "<variant>" black <name> white <name> result <1-0|0-1|1/2-1/2>
/// score <black score> ending "<why>" [swap2 "<proposer>: <decision>; ..."] setup
/// <moves|board> moves <m1 m2 ...>` (the variant as the web board's records name it, so
/// that `arbor review` needs no --game; a Swap2 opening's stones are the setup).
pub fn text_line(played: &Played, names: &[&str], variant: Variant) -> String {
    let setup = match &played.setup {
        Setup::Moves(moves) if moves.is_empty() => "start".to_string(),
        Setup::Moves(moves) => moves.join(","),
        Setup::Board(board) => board.replace(' ', ":"),
    };
    let swap2 = match &played.record.swap2 {
        Some(log) => {
            let proposer = match log.proposer {
                Side::Black => played.black,
                Side::White => played.white,
            };
            format!(" swap2 \"{}: {}\"", names[proposer], log.text())
        }
        None => String::new(),
    };
    format!(
        "game {} variant \"{variant}\" black {} white {} result {} score {:+} ending \"{}\"{swap2} setup {} moves {}",
        played.number,
        names[played.black],
        names[played.white],
        result_text(played.record.winner),
        played.record.black_score,
        ending_text(&played.record),
        setup,
        played.record.moves.join(" ")
    )
}

/// A GGF game: the start board, the opening and game moves, and the result from Black's
/// view (`RE[+12]`; a forfeit is `RE[+64:t]`-style with `:t` for time and `:r` otherwise).
pub fn ggf(
    played: &Played,
    names: &[&str],
    size: usize,
    rule: Rule,
    control: TimeControl,
) -> String {
    let mut board = Othello::new(size, rule).expect("sizes are checked");
    let mut opening_moves = Vec::new();
    match &played.setup {
        Setup::Moves(moves) => opening_moves.clone_from(moves),
        Setup::Board(_) => {
            let _ = apply_setup(&mut board, &played.setup);
        }
    }
    let start = board.to_board_string();
    let (cells, side) = start.split_once(' ').unwrap_or((&start, "X"));
    let cells: String = cells
        .chars()
        .map(|c| if c == 'X' { '*' } else { c })
        .collect();
    let side = if side == "X" { '*' } else { 'O' };
    let mut moves = String::new();
    let mut colour = if side == '*' {
        Side::Black
    } else {
        Side::White
    };
    for text in opening_moves.iter().chain(&played.record.moves) {
        let name = if text == "pass" {
            "PA".to_string()
        } else {
            text.clone()
        };
        moves.push_str(&format!(
            "{}[{name}]",
            if colour == Side::Black { "B" } else { "W" }
        ));
        colour = colour.opponent();
    }
    let result = match &played.record.ending {
        Ending::Rules => format!("{:+}", played.record.black_score),
        Ending::TimeForfeit(_) => format!("{:+}:t", played.record.black_score),
        _ => format!("{:+}:r", played.record.black_score),
    };
    let time = match control {
        TimeControl::Clock { base, inc } => format!("{}//{}", base.as_secs(), inc.as_secs()),
        _ => "0//0".to_string(),
    };
    let date = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!(
        "(;GM[Othello]PC[arbor match]DT[{date}]PB[{}]PW[{}]RE[{result}]TI[{time}]TY[{size}{}]BO[{size} {cells} {side}]{moves};)",
        names[played.black],
        names[played.white],
        if rule == Rule::Misere { "a" } else { "" },
    )
}
