-- Top news walks clusters in rank order and stops at the page (D148): without this index
-- every cluster of the last 72 hours was read and sorted for each page.
CREATE INDEX story_clusters_rank ON story_clusters (media_count DESC, size DESC, newest DESC, cluster_id DESC);
