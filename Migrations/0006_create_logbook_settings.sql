-- Facts about the file itself rather than its records, one row each.
--
--   comparison_keys   the Unicode version whose normalization computed every *_key column
--                     (the Swift standard library's that last wrote them). Logbook recomputes the
--                     keys when a Swift with other Unicode data opens the file for writing; a
--                     missing row (files written before this migration) means "recompute".

CREATE TABLE logbook_settings (
    name TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;
