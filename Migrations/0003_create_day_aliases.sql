-- Ids of imported history entries that were merged into another record of the same calendar
-- day. Importing the same file again finds them here and skips them, so a re-import is a no-op.

CREATE TABLE exercise_day_aliases (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),  -- the merged entry's UUID
    day_pk INTEGER NOT NULL REFERENCES exercise_days (pk) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE INDEX exercise_day_aliases_by_day ON exercise_day_aliases (day_pk);
