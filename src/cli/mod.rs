//! Command-line tools beyond the protocol: solving OBF suites and Gomoku puzzles, tuning,
//! playing at the terminal.

pub mod analysis;
pub mod bench;
pub mod book;
pub mod campaign;
pub mod game_args;
pub mod matches;
pub mod perft;
pub mod play;
pub mod probcut;
pub mod puzzles;
pub mod review;
pub mod selfplay;
pub mod solve;
pub mod tasks;
pub mod train;
pub mod train_data;
pub mod train_journal;
pub mod train_labels;
pub mod tune;
pub mod tune_gomoku;
pub mod tune_teacher;
pub mod weights_args;

/// Parses `args` (without the program's name) as the arguments `T` of a subcommand, as
/// the command line would.
#[cfg(test)]
pub(crate) fn parse_args<T: clap::Args>(args: &[&str]) -> Result<T, clap::Error> {
    #[derive(clap::Parser)]
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    struct Command<T: clap::Args> {
        #[command(flatten)]
        args: T,
    }
    let words = std::iter::once("arbor").chain(args.iter().copied());
    <Command<T> as clap::Parser>::try_parse_from(words).map(|command| command.args)
}
