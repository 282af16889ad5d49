import Logbook

/// `logbook help where|dates|formats|files|reports`: what a user needs beside a command's
/// options, inside the installed binary. Each topic is rendered from the declarations the commands
/// and the library use (fields from the record schemas, date forms from ``DateExpression/forms``),
/// so the text cannot drift from what the tool does.
enum HelpTopics {
    static let names = ["where", "dates", "formats", "files", "reports"]

    static func text(_ topic: String) -> String? {
        switch topic {
        case "where": where_
        case "dates": dates
        case "formats": formats
        case "files": files
        case "reports": reports
        default: nil
        }
    }

    private static func plain(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "") }

    private static var where_: String {
        """
        FILTERS (--where EXPR): the text form of a #Predicate, run in SQLite with Swift's answers.

          operators   == != < <= > >=   && || !   ( )   contains   icontains   hasPrefix   in [..]
                      icontains: a part of a text field, or a whole name of exercises, up to case and diacritics
          values      "text" (\\" \\\\ \\n \\t), whole numbers, true, false, nil, and dates (see 'logbook help dates')
                      decimals beside a count: exercises.count > 2.5 holds from 3 on
          drafts      \(DraftRepository.schema.fieldNames.joined(separator: " "))
          history     \(HistoryRepository.schema.fieldNames.joined(separator: " "))

          submittedAt == nil && version hasPrefix "2."
          day == 2026-11 && exercises icontains "burpee"
          exercises.count > 3 || !(version in ["1.0", "1.1"])

        --sort KEY[:asc|:desc] (repeatable or comma-separated) sorts by any field; ties by id.

        """
    }

    private static var dates: String {
        let width = DateExpression.forms.map { plain($0.text).count }.max() ?? 0
        let rows = DateExpression.forms.map { "  " + plain($0.text).padding(toLength: width + 2, withPad: " ", startingAt: 0) + plain($0.meaning) }
        return """
            DATES, in every date option (--at --from --to --on --since --as-of --day) and in --where.
            Words and times without a zone are read in --time-zone (else $TZ, else the system's) when the command runs.
            A range (month, week, year) gives --from its first day, --to its last, --on both; in --where,
            == is within it, < before it, > after it.

            \(rows.joined(separator: "\n"))

            """
    }

    private static var formats: String {
        """
        FORMATS (--format):
          listings, count, query           \(OutputFormat.rows.map(\.rawValue).joined(separator: " "))
          report                           \(OutputFormat.allCases.map(\.rawValue).joined(separator: " "))
          export                           \(ExportFormat.allCases.map(\.rawValue).joined(separator: " "))
          import                           \(ImportFormat.allCases.map(\.rawValue).joined(separator: " "))

          json     one array; dates ISO-8601 UTC with microseconds
          ndjson   one object per line
          csv      RFC 4180 with a header; empty text "", a missing value nothing; drafts one row per
                   checklist item (--csv-header snake_case for PostgreSQL's names), history one row per exercise
                   (id,day,date,position,exercise); a hand-made day,exercise or date,exercise file imports too
          plist    the apps' own files: release-draft.plist, history.plist
          postgres export only: a SQL script psql loads alone (schema, COPY, upserts, one transaction)
          sqlite   import only: another device's logbook, merged (a day both have becomes one record)
          html     report only: one self-contained page (inline SVG and CSS, no script) with the
                   calendar, bars per week, streaks, exercise totals and open drafts

        Text is kept byte for byte in every format; export, import into an empty database, export
        gives the same bytes.

        """
    }

    private static var files: String {
        """
        FILES:
          The database is --db, else $LOGBOOK_DB, else $XDG_DATA_HOME/logbook/logbook.sqlite
          (~/.local/share/logbook/logbook.sqlite). Commands that change data create it; commands that
          only read never create or migrate a file.

          -o FILE writes a regular file whole once complete (a symbolic link is followed and stays a
          link; the database and its -wal, -shm and -journal files are refused); a FIFO or device is
          written in place; a command that fails leaves FILE as it was.

          The file is an ordinary SQLite file: any SQLite client may read it; a program that writes
          it keeps foreign keys on and fills the *_key columns (see 'logbook check' and 'logbook repair').

        """
    }

    private static var reports: String {
        (Commands.all.first { $0.spec.name == "report" }?.spec.discussion).map { "REPORTS (logbook report NAME):\n\n" + $0 + "\n" } ?? ""
    }
}
