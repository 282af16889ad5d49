-- The logbook's own id: a random UUID made once, when this migration runs, that names this
-- logbook wherever its records go (the `source` column of a PostgreSQL export, the change
-- feed's tokens). A copy of the file (a backup, a file synced to another device) is the same
-- logbook and keeps the id; `logbook export --source NAME` names a source otherwise.

INSERT INTO logbook_settings (name, value)
    SELECT 'logbook_id', substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-'
                         || substr('89AB', 1 + (unicode(substr(h, 17, 1)) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)
    FROM (SELECT hex(randomblob(16)) AS h)
    WHERE NOT EXISTS (SELECT 1 FROM logbook_settings WHERE name = 'logbook_id');
