-- A search's filters in a full-text index of their own (D430): each story's places, its
-- language and its country as tokens ("pc4140963" city, "psUSNY" state, "pnUS" country,
-- "len" language, "kUS" country of its publisher, "xenUS" both). A search with a place, a language or a
-- country walks the words' and these tokens' rowid lists together, newest first, instead of
-- checking the places index or the story's row for every word match (a small place among
-- a common word's matches was most of a search's time: 115 req/s at 1M stories).
-- detail = none: only which stories hold a token, nothing of where; no phrase is ever asked.
CREATE VIRTUAL TABLE news_tags USING fts5 (
    tags,
    tokenize = 'unicode61',
    content = '',
    contentless_delete = 1,
    detail = none
);
INSERT INTO news_tags (rowid, tags)
SELECT n.news_id,
       'l' || replace(replace(n.lang, '-', ''), '_', '') || ' k' || n.country
       || ' x' || replace(replace(n.lang, '-', ''), '_', '') || n.country
       || coalesce((SELECT ' ' || group_concat('p' || replace(replace(p.place, ':', ''), '-', ''), ' ')
                    FROM news_places p WHERE p.news_id = n.news_id), '')
FROM news_items n ORDER BY n.news_id;
INSERT INTO news_tags (news_tags, rank) VALUES ('automerge', 8);
