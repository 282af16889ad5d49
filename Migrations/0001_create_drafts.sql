-- Release drafts and their ordered checklists.
--
-- Dates are REAL seconds since 2001-01-01T00:00:00Z (Swift's timeIntervalSinceReferenceDate),
-- stored exactly, so a Date comes back bit for bit. In the sqlite3 shell:
--   SELECT strftime('%Y-%m-%dT%H:%M:%fZ', submitted_at + 978307200, 'unixepoch') FROM drafts;
-- Text is stored byte for byte as given; *_key columns hold its NFC form, which compares the way
-- Swift's String does (canonical equivalence), for indexed lookups.

CREATE TABLE drafts (
    pk INTEGER PRIMARY KEY,                       -- internal row key that checklist rows refer to
    id TEXT NOT NULL UNIQUE CHECK (length(id) = 36),  -- the draft's UUID, uppercase
    version TEXT NOT NULL,
    version_key TEXT NOT NULL,                    -- NFC of version
    whats_new TEXT NOT NULL,
    submitted_at REAL,                            -- NULL until submitted
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE INDEX drafts_by_version ON drafts (version_key);
CREATE INDEX drafts_by_submitted_at ON drafts (submitted_at);

CREATE TABLE checklist_items (
    draft_pk INTEGER NOT NULL REFERENCES drafts (pk) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 1),  -- 1-based order within the draft
    id TEXT NOT NULL CHECK (length(id) = 36),         -- the item's UUID as the source gave it; not a key
    title TEXT NOT NULL,
    is_done INTEGER NOT NULL CHECK (is_done IN (0, 1)),
    PRIMARY KEY (draft_pk, position)
) WITHOUT ROWID;
