/// The options every command accepts, anywhere on the line.
enum GlobalOptions {
    static let database = Option<String>.text(
        "--db", valueName: "PATH", help: "The database file (default: $LOGBOOK_DB, else $XDG_DATA_HOME/logbook/logbook.sqlite).")
    static let timeZone = Option<String>.text(
        "--time-zone", valueName: "TZ", help: "Time zone for calendar days, e.g. Europe/Paris (default: $TZ, else the system's).")
    static let help = Flag("--help", short: "h", help: "Show help for the command.")
    static let version = Flag("--version", help: "Show the version, with SQLite's and the schema's.")
    static let quiet = Flag("--quiet", short: "q", help: "No confirmations or progress on stderr; errors still.")

    static let all: [OptionSpec] = [database.spec, timeZone.spec, help.spec, version.spec, quiet.spec]
}
