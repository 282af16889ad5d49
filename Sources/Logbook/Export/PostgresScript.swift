import Foundation
import SQLiteQuery

/// Writes a SQL script that `psql` loads with nothing else (`psql -v ON_ERROR_STOP=1 -f FILE`, or
/// a pipe into `psql`): the PostgreSQL schema (``PostgresScript/schema``, created if missing), the
/// records as `COPY … FROM stdin` in PostgreSQL's text format into temporary tables, then upserts
/// and deletions, all in one transaction. Loading the same or a later script again is idempotent;
/// scripts of different logbooks (different `source`s) keep each other's rows.
///
/// Records stream: each is one or more COPY lines as it comes, so any number of them takes flat
/// memory. A script cut short (a failed write, a killed process) has no `COMMIT`: PostgreSQL
/// rolls it back whole.
public struct PostgresScript {
    /// The tables the script loads, as it creates them (`CREATE TABLE IF NOT EXISTS`).
    ///
    /// Every table has the `source` column: the logbook the row came from. Dates are kept twice:
    /// `timestamptz` (microseconds, PostgreSQL's precision) for SQL, and the exact seconds since
    /// 2001-01-01T00:00:00Z as `double precision` (the `Date` bit for bit). `*_key` columns are the
    /// NFC form that Logbook compares and groups names by.
    public static let schema = """
        CREATE TABLE IF NOT EXISTS logbook_sources (
            source text PRIMARY KEY,
            token text,
            loaded_at timestamptz NOT NULL DEFAULT now(),
            read_at timestamptz
        );
        ALTER TABLE logbook_sources ADD COLUMN IF NOT EXISTS read_at timestamptz;
        CREATE TABLE IF NOT EXISTS logbook_drafts (
            source text NOT NULL,
            id uuid NOT NULL,
            version text NOT NULL,
            version_key text NOT NULL,
            whats_new text NOT NULL,
            submitted_at timestamptz,
            submitted_at_seconds double precision,
            created_at timestamptz NOT NULL,
            created_at_seconds double precision NOT NULL,
            updated_at timestamptz NOT NULL,
            updated_at_seconds double precision NOT NULL,
            PRIMARY KEY (source, id)
        );
        CREATE TABLE IF NOT EXISTS logbook_checklist_items (
            source text NOT NULL,
            draft_id uuid NOT NULL,
            position integer NOT NULL CHECK (position >= 1),
            id uuid NOT NULL,
            title text NOT NULL,
            is_done boolean NOT NULL,
            PRIMARY KEY (source, draft_id, position),
            FOREIGN KEY (source, draft_id) REFERENCES logbook_drafts (source, id) ON DELETE CASCADE
        );
        CREATE TABLE IF NOT EXISTS logbook_exercise_days (
            source text NOT NULL,
            id uuid NOT NULL,
            day date NOT NULL,
            date timestamptz NOT NULL,
            date_seconds double precision NOT NULL,
            PRIMARY KEY (source, id),
            UNIQUE (source, day)
        );
        CREATE TABLE IF NOT EXISTS logbook_exercises (
            source text NOT NULL,
            day_id uuid NOT NULL,
            position integer NOT NULL CHECK (position >= 1),
            name text NOT NULL,
            name_key text NOT NULL,
            PRIMARY KEY (source, day_id, position),
            FOREIGN KEY (source, day_id) REFERENCES logbook_exercise_days (source, id) ON DELETE CASCADE
        );
        CREATE INDEX IF NOT EXISTS logbook_exercise_days_by_day ON logbook_exercise_days (day);
        DROP INDEX IF EXISTS logbook_exercises_by_name;
        CREATE INDEX IF NOT EXISTS logbook_exercises_by_name_hash ON logbook_exercises USING hash (name_key);
        CREATE INDEX IF NOT EXISTS logbook_drafts_by_submitted_at ON logbook_drafts (submitted_at);

        """

    private enum Block: String {
        case drafts = """
            logbook_load_drafts (source, id, version, version_key, whats_new, submitted_at, submitted_at_seconds, \
            created_at, created_at_seconds, updated_at, updated_at_seconds, item_position, item_id, item_title, item_is_done)
            """
        case days = "logbook_load_days (source, id, day, date, date_seconds, position, name, name_key)"
        case deletions = "logbook_load_deletions (kind, id)"
    }

    private let output: (String) throws -> Void
    private let source: String
    private let sourceField: String
    private var block: Block?
    /// When the script was made, by the logbook's clock: no later than the read of the records it
    /// holds, which begins after (`feedOrderCheck(since:read:)` compares it with the same clock's).
    private let readAt = Date()

    /// A script for the logbook named `source`, handing text to `output` as it goes. Make it before
    /// the records are read: its time orders a feed of every record against earlier loads.
    public init(source: String, output: @escaping (String) throws -> Void) throws {
        self.output = output
        self.source = source
        sourceField = try PostgresText.copyField(source, record: nil, field: "source")
    }

    /// The header, `BEGIN`, the lock that makes loads of Logbook's scripts into one database wait
    /// for each other (two at once deadlocked on the schema's indexes; helper-100), the schema and
    /// the temporary tables.
    public func begin(title: String) throws {
        try output("""
            -- \(PostgresText.comment(title))
            -- Load with: psql -v ON_ERROR_STOP=1 -f FILE (or pipe it into psql). One transaction: all or nothing.
            \\set ON_ERROR_STOP on
            SET client_encoding = 'UTF8';
            SET standard_conforming_strings = on;
            SET client_min_messages = warning;
            BEGIN;
            DO $logbook$ BEGIN PERFORM pg_advisory_xact_lock(\(Self.loadLockKey)); END $logbook$;
            \(Self.schema)
            CREATE TEMPORARY TABLE logbook_load_drafts (source text, id uuid, version text, version_key text, whats_new text,
                submitted_at timestamptz, submitted_at_seconds double precision, created_at timestamptz,
                created_at_seconds double precision, updated_at timestamptz, updated_at_seconds double precision,
                item_position integer, item_id uuid, item_title text, item_is_done boolean) ON COMMIT DROP;
            CREATE TEMPORARY TABLE logbook_load_days (source text, id uuid, day date, date timestamptz,
                date_seconds double precision, position integer, name text, name_key text) ON COMMIT DROP;
            CREATE TEMPORARY TABLE logbook_load_deletions (kind text, id uuid) ON COMMIT DROP;

            """)
    }

    /// One draft, its checklist included: replaces what the source had under its id.
    public mutating func write(_ draft: ReleaseDraft) throws {
        try open(.drafts)
        let record = { "the draft \(draft.id.uuidString)" }
        let fields = [sourceField, draft.id.text, try text(draft.version, "version", record), try text(draft.version.comparisonKey, "version", record),
                      try text(draft.whatsNew, "whatsNew", record)] + Self.instant(draft.submittedAt) + Self.instant(draft.createdAt)
            + Self.instant(draft.updatedAt)
        let prefix = fields.joined(separator: "\t")
        // A record PostgreSQL cannot hold writes none of its rows, however many go out in pieces
        // (`copyField`'s own refusal of these fields then never fires; it guards the others).
        for (offset, item) in draft.checklist.enumerated() {
            try PostgresText.refuseUnstorable(item.title, record: record(), field: "checklist[\(offset)].title")
        }
        var lines = ChunkedOutput(output)
        if draft.checklist.isEmpty { try lines.append(prefix + "\t\\N\t\\N\t\\N\t\\N\n") }
        for (offset, item) in draft.checklist.enumerated() {
            try lines.append(prefix + "\t\(offset + 1)\t\(item.id.text)\t\(try text(item.title, "checklist[\(offset)].title", record))\t"
                             + (item.isDone ? "t\n" : "f\n"))
        }
        try lines.flush()
    }

    /// One day, its exercises included: replaces what the source had under its id or on its day.
    public mutating func write(_ day: ExerciseDay) throws {
        try open(.days)
        let record = { "the day \(day.day) (\(day.id.uuidString))" }
        let prefix = ([sourceField, day.id.text, day.day.description] + Self.instant(day.date)).joined(separator: "\t")
        for (offset, name) in day.exercises.enumerated() {
            try PostgresText.refuseUnstorable(name, record: record(), field: "exercises[\(offset)]")
        }
        var lines = ChunkedOutput(output)
        if day.exercises.isEmpty { try lines.append(prefix + "\t\\N\t\\N\t\\N\n") }
        for (offset, name) in day.exercises.enumerated() {
            try lines.append(prefix + "\t\(offset + 1)\t\(try text(name, "exercises[\(offset)]", record))\t"
                             + "\(try text(name.comparisonKey, "exercises[\(offset)]", record))\n")
        }
        try lines.flush()
    }

    /// The deletion of the draft (`kind` drafts) or day (`history`) with `id`.
    public mutating func writeDeletion(of kind: RecordKind, id: UUID) throws {
        try open(.deletions)
        try output((kind == .drafts ? "draft\t" : "day\t") + id.text + "\n")
    }

    /// The deletions, upserts and `COMMIT`. With `replacing`, the source's records of those kinds
    /// that the script did not hold are deleted too (a full export: PostgreSQL then holds exactly
    /// the logbook's records). `read` is the change log's token when the records were read: the
    /// load first checks it against the token PostgreSQL holds (`feedOrderCheck(since:read:)`).
    /// A change feed (`isFeed`, with every record or the changes after `since`) records `read` there
    /// as the token it ends with; an export records none.
    public mutating func end(replacing: Set<RecordKind> = [], read: ChangeToken? = nil, since: ChangeToken? = nil,
                             isFeed: Bool = false) throws {
        try close()
        let source = PostgresText.literal(self.source)
        let token = isFeed ? read : nil
        var sql = read.map { feedOrderCheck(since: since, read: $0) } ?? ""
        sql += """
            DELETE FROM logbook_drafts AS d USING logbook_load_deletions AS x
                WHERE x.kind = 'draft' AND d.source = \(source) AND d.id = x.id;
            DELETE FROM logbook_exercise_days AS d USING logbook_load_deletions AS x
                WHERE x.kind = 'day' AND d.source = \(source) AND d.id = x.id;

            """
        if replacing.contains(.drafts) {
            sql += """
                DELETE FROM logbook_drafts AS d
                    WHERE d.source = \(source) AND NOT EXISTS (SELECT FROM logbook_load_drafts AS l WHERE l.id = d.id);

                """
        }
        if replacing.contains(.history) {
            sql += """
                DELETE FROM logbook_exercise_days AS d
                    WHERE d.source = \(source) AND NOT EXISTS (SELECT FROM logbook_load_days AS l WHERE l.id = d.id);

                """
        }
        sql += """
            INSERT INTO logbook_drafts (source, id, version, version_key, whats_new, submitted_at, submitted_at_seconds,
                                        created_at, created_at_seconds, updated_at, updated_at_seconds)
                SELECT DISTINCT ON (id) source, id, version, version_key, whats_new, submitted_at, submitted_at_seconds,
                                        created_at, created_at_seconds, updated_at, updated_at_seconds
                FROM logbook_load_drafts ORDER BY id
                ON CONFLICT (source, id) DO UPDATE SET version = EXCLUDED.version, version_key = EXCLUDED.version_key,
                    whats_new = EXCLUDED.whats_new, submitted_at = EXCLUDED.submitted_at,
                    submitted_at_seconds = EXCLUDED.submitted_at_seconds, created_at = EXCLUDED.created_at,
                    created_at_seconds = EXCLUDED.created_at_seconds, updated_at = EXCLUDED.updated_at,
                    updated_at_seconds = EXCLUDED.updated_at_seconds;
            DELETE FROM logbook_checklist_items AS i USING (SELECT DISTINCT id FROM logbook_load_drafts) AS l
                WHERE i.source = \(source) AND i.draft_id = l.id;
            INSERT INTO logbook_checklist_items (source, draft_id, position, id, title, is_done)
                SELECT source, id, item_position, item_id, item_title, item_is_done FROM logbook_load_drafts
                WHERE item_position IS NOT NULL;
            DO $logbook$
            DECLARE held record;
            BEGIN
                -- A record the script does not bring holding a day it gives another record (one moved
                -- to a day a filtered export leaves out): deleting it would lose it, so the load stops.
                -- (The source is read from the load, not written here: no text of it enters this body.)
                SELECT d.id, d.day, l.id AS incoming INTO held
                    FROM logbook_exercise_days AS d JOIN (SELECT DISTINCT source, id, day FROM logbook_load_days) AS l
                        ON d.source = l.source AND d.day = l.day AND d.id <> l.id
                    WHERE NOT EXISTS (SELECT FROM logbook_load_days AS m WHERE m.id = d.id)
                    ORDER BY d.day LIMIT 1;
                IF FOUND THEN
                    RAISE EXCEPTION 'logbook: record % holds day % here, which this script gives record %; load an export of every day '
                        '(no --where, --from, --to or --limit), or the change feed, which brings both', held.id, held.day, held.incoming;
                END IF;
            END $logbook$;
            DELETE FROM logbook_exercise_days AS d USING (SELECT DISTINCT id, day FROM logbook_load_days) AS l
                WHERE d.source = \(source) AND d.day = l.day AND d.id <> l.id;
            INSERT INTO logbook_exercise_days (source, id, day, date, date_seconds)
                SELECT DISTINCT ON (id) source, id, day, date, date_seconds FROM logbook_load_days ORDER BY id
                ON CONFLICT (source, id) DO UPDATE SET day = EXCLUDED.day, date = EXCLUDED.date,
                    date_seconds = EXCLUDED.date_seconds;
            DELETE FROM logbook_exercises AS e USING (SELECT DISTINCT id FROM logbook_load_days) AS l
                WHERE e.source = \(source) AND e.day_id = l.id;
            INSERT INTO logbook_exercises (source, day_id, position, name, name_key)
                SELECT source, id, position, name, name_key FROM logbook_load_days WHERE position IS NOT NULL;
            INSERT INTO logbook_sources (source, token, loaded_at, read_at)
                VALUES (\(source), \(token.map { PostgresText.literal($0.description) } ?? "NULL"), now(), \(token == nil ? "NULL" : "'\(readAt.iso8601Microseconds)'"))
                ON CONFLICT (source) DO UPDATE SET token = coalesce(EXCLUDED.token, logbook_sources.token), loaded_at = now(),
                    read_at = coalesce(EXCLUDED.read_at, logbook_sources.read_at);
            COMMIT;

            """
        try output(sql)
    }

    /// Ends a script that an error stopped before ``end(replacing:read:since:isFeed:)``, at a record's bound:
    /// the COPY block closed, then a statement that fails, so that `psql` (which the script tells
    /// to stop on an error) exits with a failure, not 0, and loads nothing. Output errors are not
    /// thrown: the output may be what failed.
    public mutating func abandon() {
        try? close()
        try? output("""
            DO $logbook$ BEGIN RAISE EXCEPTION 'logbook stopped before the end of this script (its error says why): nothing was loaded'; END $logbook$;

            """)
    }

    /// The key of the transaction-level advisory lock every script takes first.
    private static let loadLockKey = 0x4C6F_6762_6F6F_6B31  // "Logbook1"

    /// Statements that stop the load, PostgreSQL unchanged, when the token PostgreSQL holds for
    /// the source (the end of the last feed it loaded; compared by position, then day mark) is
    /// - another logbook's: two logbooks under one `--source`, where the second replaced the first's
    ///   records (helper-101);
    /// - later than `read`, the log's token when this script's records were read: the script is
    ///   older than that feed (two runs that overlapped, an old file loaded again, an export made
    ///   before it: helper-99, helper-101) and would take records back. A feed of every record or
    ///   an export (`since` nil) begun after that feed, by the logbook's clock (`readAt`, kept in
    ///   `read_at`), is let through: the logbook was restored from a backup, and it brings
    ///   PostgreSQL to it;
    /// - earlier than `since`, or missing: the changes before `since` are in no script PostgreSQL
    ///   loaded (a load that failed while `--state` moved on), and would be lost.
    ///
    /// Each refusal names the command that goes on from there. A stored token of another form
    /// (another program's) is not compared. The source and tokens go in as literals, outside the
    /// `DO` body.
    private func feedOrderCheck(since: ChangeToken?, read: ChangeToken) -> String {
        """
        CREATE TEMPORARY TABLE logbook_load_token (source text, since text, token text, began_at timestamptz) ON COMMIT DROP;
        INSERT INTO logbook_load_token VALUES (\(PostgresText.literal(source)), \(since.map { PostgresText.literal($0.description) } ?? "NULL"),
            \(PostgresText.literal(read.description)), '\(readAt.iso8601Microseconds)');
        DO $logbook$
        DECLARE
            load record;
            held record;
            source_option text;
        BEGIN
            SELECT source, since, token, began_at, split_part(token, ':', 1) AS logbook, split_part(token, ':', 2)::numeric AS position,
                   nullif(split_part(token, ':', 3), '')::numeric AS mark, split_part(since, ':', 2)::numeric AS since_position,
                   nullif(split_part(since, ':', 3), '')::numeric AS since_mark
                INTO load FROM logbook_load_token;
            source_option := CASE WHEN load.source <> load.logbook THEN ' --source ' || quote_literal(load.source) ELSE '' END;
            SELECT token, coalesce(read_at, loaded_at) AS read_at, split_part(token, ':', 1) AS logbook,
                   split_part(token, ':', 2)::numeric AS position, nullif(split_part(token, ':', 3), '')::numeric AS mark
                INTO held FROM logbook_sources
                WHERE source = load.source AND token ~ '^[^:]+:[0-9]+(:[0-9]+(:[0-9a-f]{16})?)?$';
            IF FOUND AND held.logbook <> load.logbook THEN
                RAISE EXCEPTION '%', format('logbook: PostgreSQL holds the source %L for another logbook (%s), and this script is '
                    'of logbook %s: give this one a --source of its own (or, to replace the other''s records, first: '
                    'DELETE FROM logbook_sources WHERE source = %L)', load.source, held.logbook, load.logbook, load.source);
            END IF;
            IF NOT FOUND THEN
                IF load.since IS NOT NULL THEN
                    RAISE EXCEPTION '%', format('logbook: this script holds the changes after token %s, and PostgreSQL holds no '
                        'feed of this logbook: what came before would be missing. Load a feed of every record first: '
                        'logbook changes%s', load.since, source_option);
                END IF;
                RETURN;
            END IF;
            IF (held.position, coalesce(held.mark, load.mark)) > (load.position, coalesce(load.mark, held.mark))
                    AND NOT (load.since IS NULL AND load.began_at > held.read_at) THEN
                RAISE EXCEPTION '%', format('logbook: PostgreSQL holds this logbook up to change token %s (a feed made %s), later '
                    'than this script was read (%s): loading it would take records back. Feed from there: logbook changes '
                    '--since %s%s. (A logbook restored from a backup loads a feed of every record made now; if its clock was '
                    'ahead when that feed was made, first: DELETE FROM logbook_sources WHERE source = %L)', held.token,
                    held.read_at, load.token, held.token, source_option, load.source);
            END IF;
            IF load.since IS NOT NULL AND (held.position, coalesce(held.mark, load.since_mark))
                    < (load.since_position, coalesce(load.since_mark, held.mark)) THEN
                RAISE EXCEPTION '%', format('logbook: this script holds the changes after token %s, and PostgreSQL holds this '
                    'logbook only up to %s: the changes between would be lost (did an earlier load fail?). Feed from there: '
                    'logbook changes --since %s%s', load.since, held.token, held.token, source_option);
            END IF;
        END $logbook$;

        """
    }

    private mutating func open(_ next: Block) throws {
        guard block != next else { return }
        try close()
        try output("COPY \(next.rawValue) FROM stdin;\n")
        block = next
    }

    private mutating func close() throws {
        guard block != nil else { return }
        try output("\\.\n")
        block = nil
    }

    /// `value` as a COPY field of the record `record` names (made only when the value is refused).
    private func text(_ value: String, _ field: String, _ record: () -> String) throws -> String {
        try PostgresText.copyField(value, record: record(), field: field)
    }

    /// A `timestamptz` with microseconds and the exact seconds, or two NULLs.
    private static func instant(_ date: Date?) -> [String] {
        guard let date else { return ["\\N", "\\N"] }
        return [date.iso8601Microseconds, String(date.timeIntervalSinceReferenceDate)]
    }
}
