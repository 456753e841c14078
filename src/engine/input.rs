//! Reading protocol lines safely: bounded length, any bytes, `\n` or `\r\n` endings.

use std::io::{self, BufRead};

#[derive(Debug, PartialEq, Eq)]
pub enum InputLine {
    Text(String),
    /// The line was skipped; it had this many bytes.
    TooLong(usize),
    NotUtf8,
}

/// Reads one line, keeping at most `limit` bytes of it in `buffer`. `Ok(None)` at the
/// end of input. A last line without a newline still counts.
pub fn read_line_capped(
    input: &mut (impl BufRead + ?Sized),
    buffer: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<InputLine>> {
    buffer.clear();
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if chunk.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (part, found_newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => (&chunk[..end], true),
            None => (chunk, false),
        };
        total += part.len();
        if buffer.len() < limit {
            let room = limit - buffer.len();
            buffer.extend_from_slice(&part[..part.len().min(room)]);
        }
        let used = part.len() + found_newline as usize;
        input.consume(used);
        if found_newline {
            break;
        }
    }
    if total > limit {
        return Ok(Some(InputLine::TooLong(total)));
    }
    if buffer.last() == Some(&b'\r') {
        buffer.pop();
    }
    Ok(Some(match std::str::from_utf8(buffer) {
        Ok(text) => InputLine::Text(text.to_string()),
        Err(_) => InputLine::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(data: &[u8], limit: usize) -> Vec<InputLine> {
        let mut input = io::BufReader::with_capacity(4, data);
        let mut buffer = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = read_line_capped(&mut input, &mut buffer, limit).unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn splits_caps_and_checks_encoding() {
        use InputLine::*;
        assert_eq!(
            lines(b"ping\r\n\nabcdefghijkl\n\xff\xfe\nlast", 10),
            vec![
                Text("ping".into()),
                Text(String::new()),
                TooLong(12),
                NotUtf8,
                Text("last".into())
            ]
        );
        assert_eq!(lines(b"", 10), vec![]);
    }
}
