-- The full-text index keeps no copy of the text (D153): search reads only the index
-- (MATCH, bm25) and highlights from news_items, while the copy was a quarter of the
-- database and of what ingestion wrote. contentless_delete keeps DELETE by rowid working.
CREATE VIRTUAL TABLE news_fts_index USING fts5 (
    title, summary, body,
    tokenize = 'porter unicode61 remove_diacritics 2',
    content = '',
    contentless_delete = 1
);
INSERT INTO news_fts_index (rowid, title, summary, body) SELECT rowid, title, summary, body FROM news_fts;
DROP TABLE news_fts;
ALTER TABLE news_fts_index RENAME TO news_fts;
