-- Top news walks each six-hour bucket of the window in rank order (D410): the rank walk of
-- D148 passed over every older cluster that outranks the window's (all of them when the
-- window is empty: 365 req/s at 100k stories). A cluster carries its lead story's language
-- and country, so the walk filters on the index alone.
ALTER TABLE story_clusters ADD COLUMN lang TEXT NOT NULL DEFAULT '';
ALTER TABLE story_clusters ADD COLUMN country TEXT NOT NULL DEFAULT '';
UPDATE story_clusters SET
    lang = COALESCE((SELECT n.lang FROM news_items n WHERE n.news_id = story_clusters.lead_id), ''),
    country = COALESCE((SELECT n.country FROM news_items n WHERE n.news_id = story_clusters.lead_id), '');
DROP INDEX story_clusters_rank;
CREATE INDEX story_clusters_top ON story_clusters (
    newest / 21600000 DESC, media_count DESC, size DESC, newest DESC, cluster_id DESC, lang, country
);
