import ArgumentParser

/// `--read-only`, for the commands that open a store (as `sqlite3 -readonly`): a SQLite file is
/// opened for reading only and never written, and the REPL and scripts refuse every change to
/// any store.
struct ReadOnlyOption: ParsableArguments {
    @Flag(name: .customLong("read-only"),
          help: "Open the store read-only: fetches run, every change is refused, and a SQLite file is never written.")
    var isOn = false
}
