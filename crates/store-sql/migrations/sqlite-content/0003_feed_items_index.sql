-- `feeds list` counts each feed's items: without this index that scanned every item once per feed.
CREATE INDEX news_feed ON news_items (feed_id);
