-- A new item that starts a story of its own is stored with cluster_id 0; this makes its
-- story its own id in the same statement (identity values are set before BEFORE triggers
-- run), instead of a second UPDATE per item (issue 33: bulk ingestion's round trips).
CREATE FUNCTION news_items_own_cluster() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.cluster_id = 0 THEN
        NEW.cluster_id := NEW.news_id;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER news_items_own_cluster BEFORE INSERT ON news_items
    FOR EACH ROW EXECUTE FUNCTION news_items_own_cluster();
