//! The grammars of `arbor match`'s command line, parsed into the harness's types: engine
//! specs (`--engine name=NAME cmd=COMMAND [proto=P] [threads=N] [depth=N]`), clocks
//! (`--tc 60+1`) and SPRT bounds (`--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`).

use std::time::Duration;

use super::EngineSpec;
use super::foreign::Proto;
use super::referee::TimeControl;
use super::stats::Sprt;
use crate::bounds;
use crate::text::quote;

/// The time control of a match given none: a minute per side per game.
pub const DEFAULT_CONTROL: TimeControl = TimeControl::Clock {
    base: Duration::from_secs(60),
    inc: Duration::ZERO,
};

/// The words of every `--engine`, in order: each `name=` starts an engine, whose `cmd=`
/// runs to the next `name=`; the words `proto=P`, `threads=N` and `depth=N` among them
/// name its protocol, thread count and NBoard's maximum depth. Engines of a protocol that
/// can be sent a thread count and have no `threads=` get `threads`.
pub fn parse_engines(words: &[String], threads: Option<usize>) -> Result<Vec<EngineSpec>, String> {
    const KEYS: [&str; 3] = ["proto=", "threads=", "depth="];
    let mut specs: Vec<(String, [Option<&str>; 3])> = Vec::new();
    for word in words {
        let key = KEYS.iter().position(|key| word.starts_with(key));
        match (specs.last_mut(), key) {
            (Some((_, keyed)), Some(index)) => {
                if keyed[index].is_some() {
                    return Err(format!("--engine: {} given twice", quote(word)));
                }
                keyed[index] = Some(&word[KEYS[index].len()..]);
            }
            (Some((spec, _)), None) if !word.starts_with("name=") => {
                spec.push(' ');
                spec.push_str(word);
            }
            _ => specs.push((word.clone(), [None; 3])),
        }
    }
    specs
        .iter()
        .map(|(spec, [proto, threads_word, depth])| {
            let proto = proto
                .map(Proto::parse)
                .transpose()
                .map_err(|e| format!("--engine: {e}"))?
                .unwrap_or_default();
            let (name, command) = name_and_command(spec)?;
            let threads = threads_word
                .map(bounds::threads)
                .transpose()
                .map_err(|e| format!("--engine {}: threads: {e}", quote(name)))?
                .or(threads.filter(|_| proto.has_threads()));
            let max_depth = depth
                .map(bounds::fixed_depth)
                .transpose()
                .map_err(|e| format!("--engine {}: depth: {e}", quote(name)))?;
            Ok(EngineSpec {
                name: name.to_string(),
                command: command.to_string(),
                proto,
                threads,
                max_depth,
            })
        })
        .collect()
}

/// `name=NAME cmd=COMMAND`: the name (one word, not empty) and the command (the rest of
/// the text after `cmd=`, not empty).
fn name_and_command(spec: &str) -> Result<(&str, &str), String> {
    let (first, rest) = spec.split_once(char::is_whitespace).unwrap_or((spec, ""));
    let name = first
        .strip_prefix("name=")
        .filter(|name| !name.is_empty())
        .ok_or_else(|| format!("--engine {}: expected name=NAME cmd=COMMAND", quote(spec)))?;
    let rest = rest.trim_start();
    let command = match rest.strip_prefix("cmd=") {
        Some(command) => command.trim(),
        None if rest.contains("cmd=") => {
            return Err(format!(
                "--engine {}: expected cmd=COMMAND right after name={name}",
                quote(spec)
            ));
        }
        None => "",
    };
    if command.is_empty() {
        return Err(format!("--engine {}: missing cmd=COMMAND", quote(spec)));
    }
    Ok((name, command))
}

/// `--tc`: seconds per side per game with an optional increment (`300`, `60+1`,
/// `0.5+0.05`); the time per game is more than 0.
pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base = bounds::seconds(base)?;
    if base.is_zero() {
        return Err("the time per game must be more than 0 seconds".into());
    }
    Ok(TimeControl::Clock {
        base,
        inc: bounds::seconds(inc)?,
    })
}

/// `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`: any of the four, each once (words may
/// hold several, separated by spaces); the others keep those defaults.
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut values = [
        ("elo0", 0.0),
        ("elo1", 10.0),
        ("alpha", 0.05),
        ("beta", 0.05),
    ];
    let mut seen = Vec::new();
    for word in words.iter().flat_map(|w| w.split_whitespace()) {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--sprt: expected key=value, got {}", quote(word)))?;
        let slot = values
            .iter_mut()
            .find(|(name, _)| *name == key)
            .ok_or_else(|| {
                format!(
                    "--sprt: unknown {}: expected elo0, elo1, alpha or beta",
                    quote(key)
                )
            })?;
        if seen.contains(&key) {
            return Err(format!("--sprt: {key} given twice"));
        }
        seen.push(key);
        slot.1 = value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("--sprt: {key}: not a number: {}", quote(value)))?;
    }
    let [elo0, elo1, alpha, beta] = values.map(|(_, value)| value);
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| format!("--sprt: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    fn engines(text: &str) -> Result<Vec<EngineSpec>, String> {
        parse_engines(&words(text), None)
    }

    fn error(result: Result<impl std::fmt::Debug, String>) -> String {
        result.expect_err("refused")
    }

    /// Each text is refused by `parse` with a message containing its expected words.
    fn refuses<T: std::fmt::Debug>(
        parse: impl Fn(&str) -> Result<T, String>,
        cases: &[(&str, &str)],
    ) {
        for (text, expected) in cases {
            let message = error(parse(text));
            assert!(message.contains(expected), "{text:?}: {message}");
        }
    }

    #[test]
    fn engines_take_their_words_up_to_the_next_name() {
        let specs = parse_engines(
            &[
                "name=a".into(),
                "cmd=arbor --seed 1".into(),
                "threads=2".into(),
                "name=b".into(),
                "cmd=edax".into(),
                "-q".into(),
                "proto=NBoard".into(),
                "depth=12".into(),
                "name=c cmd=pbrain".into(),
                "proto=gomocup".into(),
            ],
            Some(3),
        )
        .unwrap();
        let summary: Vec<_> = specs
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    s.command.as_str(),
                    s.proto,
                    s.threads,
                    s.max_depth,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("a", "arbor --seed 1", Proto::Native, Some(2), None),
                ("b", "edax -q", Proto::Nboard, None, Some(12)),
                ("c", "pbrain", Proto::Gomocup, Some(3), None),
            ]
        );
    }

    #[test]
    fn a_command_keeps_its_quotes_and_equals_signs() {
        let specs = parse_engines(
            &["name=a".into(), "cmd=sh -c 'x=1 name=2; arbor'".into()],
            None,
        )
        .unwrap();
        assert_eq!(specs[0].command, "sh -c 'x=1 name=2; arbor'");
    }

    #[test]
    fn bad_engine_specs_are_refused_with_the_word_at_fault() {
        refuses(
            engines,
            &[
                (
                    "cmd=arbor",
                    "--engine 'cmd=arbor': expected name=NAME cmd=COMMAND",
                ),
                ("proto=gtp name=a cmd=x", "expected name=NAME cmd=COMMAND"),
                ("name= cmd=x", "--engine 'name= cmd=x': expected name=NAME"),
                ("name=a", "--engine 'name=a': missing cmd=COMMAND"),
                ("name=a cmd=", "missing cmd=COMMAND"),
                ("name=a cmd=  ", "missing cmd=COMMAND"),
                ("name=a b cmd=x", "expected cmd=COMMAND right after name=a"),
                ("name=xcmd=y", "missing cmd=COMMAND"),
                (
                    "name=a cmd=x threads=2 threads=3",
                    "'threads=3' given twice",
                ),
                ("name=a cmd=x proto=uci", "--engine: unknown protocol 'uci'"),
                ("name=a cmd=x proto=", "unknown protocol ''"),
                ("name=a cmd=x threads=0", "--engine 'a': threads: 0 threads"),
                ("name=a cmd=x threads=-1", "--engine 'a': threads: expected"),
                ("name=a cmd=x threads=99999999999999999999", "threads: "),
                ("name=a cmd=x depth=61", "--engine 'a': depth: "),
                ("name=a cmd=x depth=", "--engine 'a': depth: "),
            ],
        );
        // A name far too long is quoted cut short.
        let long = format!("name={} cmd=x threads=0", "n".repeat(10_000));
        assert!(error(engines(&long)).len() < 500);
    }

    #[test]
    fn match_threads_go_only_to_engines_that_can_be_sent_them() {
        let specs = parse_engines(
            &words("name=a cmd=x name=b cmd=y proto=gtp name=c cmd=z proto=nboard"),
            Some(4),
        )
        .unwrap();
        let threads: Vec<_> = specs.iter().map(|s| s.threads).collect();
        assert_eq!(threads, [Some(4), None, None]);
        assert!(parse_engines(&[], None).unwrap().is_empty());
    }

    #[test]
    fn clocks_are_seconds_and_an_increment() {
        let clock = |base: f64, inc: f64| TimeControl::Clock {
            base: Duration::from_secs_f64(base),
            inc: Duration::from_secs_f64(inc),
        };
        assert_eq!(parse_clock("300"), Ok(clock(300.0, 0.0)));
        assert_eq!(parse_clock("60+1"), Ok(clock(60.0, 1.0)));
        assert_eq!(parse_clock("0.5+0.05"), Ok(clock(0.5, 0.05)));
        assert_eq!(parse_clock("1+0"), Ok(clock(1.0, 0.0)));
        refuses(
            parse_clock,
            &[
                ("0", "more than 0 seconds"),
                ("0+5", "more than 0 seconds"),
                ("", "expected a non-negative number of seconds"),
                ("60+", "expected a non-negative number of seconds"),
                ("+1", "expected a non-negative number of seconds"),
                ("60+1+1", "expected a non-negative number of seconds"),
                ("-1", "expected a non-negative number of seconds"),
                ("1e3", "expected a non-negative number of seconds"),
                ("inf", "expected a non-negative number of seconds"),
                ("NaN", "expected a non-negative number of seconds"),
                ("1000000000000", "too long"),
                ("60+1000000000000", "too long"),
            ],
        );
    }

    #[test]
    fn sprt_words_set_any_of_the_four_bounds() {
        assert_eq!(parse_sprt(&[]), Sprt::new(0.0, 10.0, 0.05, 0.05));
        assert_eq!(
            parse_sprt(&words("elo1=5 alpha=0.1")),
            Sprt::new(0.0, 5.0, 0.1, 0.05)
        );
        assert_eq!(
            parse_sprt(&["elo0=-2 elo1=3".into(), "beta=0.2".into()]),
            Sprt::new(-2.0, 3.0, 0.05, 0.2)
        );
    }

    #[test]
    fn bad_sprt_words_are_refused() {
        refuses(
            |text| parse_sprt(&words(text)),
            &[
                ("alpha", "--sprt: expected key=value, got 'alpha'"),
                ("gamma=1", "--sprt: unknown 'gamma'"),
                ("=1", "--sprt: unknown ''"),
                ("alpha=0.1 alpha=0.2", "--sprt: alpha given twice"),
                ("elo1=inf", "--sprt: elo1: not a number: 'inf'"),
                ("alpha=NaN", "not a number"),
                ("elo1=", "not a number: ''"),
                ("elo1=1e999", "not a number"),
                ("alpha=2", "--sprt: alpha must be between 0 and 1"),
                ("beta=0", "beta must be between 0 and 1"),
                ("elo0=10 elo1=0", "must be below elo1"),
                ("elo0=5 elo1=5", "must be below elo1"),
                ("elo1=5000", "within -1000..1000"),
            ],
        );
    }
}
