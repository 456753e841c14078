//! User text echoed in messages, the one way every front end and tool does it.

/// Longest piece of user text echoed back, in characters.
const ECHO_CHARS: usize = 40;

/// Quotes user text for a one-line message: `'text'`, cut to 40 characters (`...`
/// marks the cut), with control characters escaped (`\0`, `\u{1b}`) so a reply stays
/// one printable line whatever was sent.
pub fn quote(text: &str) -> String {
    let mut out = String::from("'");
    for (count, c) in text.chars().enumerate() {
        if count == ECHO_CHARS {
            out.push_str("...");
            break;
        }
        push_printable(&mut out, c);
    }
    out.push('\'');
    out
}

/// User text echoed whole (`ping`'s): control characters escaped as [`quote`] does, so
/// that ESC, BEL, NUL or CR never reach the client's terminal or parser raw.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    text.chars().for_each(|c| push_printable(&mut out, c));
    out
}

fn push_printable(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_text_escapes_controls_only() {
        assert_eq!(printable("are you there"), "are you there");
        assert_eq!(
            printable("a\x1b[31mb\x07c\0d\re"),
            "a\\u{1b}[31mb\\u{7}c\\u{0}d\\re"
        );
        assert_eq!(printable(&"y".repeat(100)), "y".repeat(100));
    }

    #[test]
    fn quotes_escape_controls_and_cut_long_text() {
        assert_eq!(quote("d3"), "'d3'");
        assert_eq!(quote("a\0b\x1b\n"), "'a\\u{0}b\\u{1b}\\n'");
        let long = "x".repeat(100);
        assert_eq!(quote(&long), format!("'{}...'", "x".repeat(40)));
        assert_eq!(quote("é\u{202e}"), "'é\u{202e}'");
    }
}
