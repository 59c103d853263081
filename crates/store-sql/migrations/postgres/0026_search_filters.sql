-- A filtered search asks the full-text index for the words and the filters together (D431):
-- each story's `search` vector also holds its language, its publisher's country, both, and
-- each of its places, as lexemes starting with "=" ("=len", "=kUS", "=xenUS", "=pc4140963",
-- "=psUSNY", "=pnUS"; search_tokens.rs makes the same for new stories), which PostgreSQL's
-- parser never leaves in a word a reader types. A city or a language among a common word's
-- matches was found by testing each match's row: 11-14 req/s at a million stories.
UPDATE news_items n SET search = coalesce(n.search, ''::tsvector) || array_to_tsvector(
    ARRAY['=l' || regexp_replace(n.lang, '[^A-Za-z0-9]', '', 'g'),
          '=k' || regexp_replace(n.country, '[^A-Za-z0-9]', '', 'g'),
          '=x' || regexp_replace(n.lang || n.country, '[^A-Za-z0-9]', '', 'g')]
    || ARRAY(SELECT '=p' || regexp_replace(p.place, '[^A-Za-z0-9]', '', 'g')
             FROM news_places p WHERE p.news_id = n.news_id));

-- The stories a full-text query matches, at most `at_most` of them, always read from the
-- GIN index (D431). A search that has counted few matches lists them all this way and
-- sorts them; the planner, left to itself, often walked every story newest first instead,
-- because it cannot know how a rare word and a filter together narrow the matches (a rare
-- word's estimate is a fixed share of the stories, and a filter's is taken as independent
-- of the words: an English word among French Canadian stories matches none).
CREATE FUNCTION search_matches(q tsquery, at_most bigint) RETURNS SETOF bigint
    LANGUAGE sql STABLE ROWS 100
    SET enable_seqscan = off SET enable_indexscan = off
    AS $$ SELECT news_id FROM news_items WHERE search @@ q LIMIT at_most $$;
