-- Never-used bytes per host: pages read from storage during boot that
-- nothing touched (readahead and mmap waste), summed over each host's
-- boots. Recordings from kernels without page-access events (before 6.12)
-- have no value and are counted apart.
--   sqlite3 -header -column fleet.db < examples/fleet/never-used-per-host.sql
-- Runs unchanged in ClickHouse 18.16 on (no alias named as a column).
SELECT r.host,
       COUNT(*)                                          AS boots,
       SUM(r.never_used_bytes)                           AS never_used_total,
       ROUND(SUM(r.never_used_bytes) / 1048576.0, 2)     AS never_used_mib,
       ROUND(100.0 * SUM(r.never_used_bytes) /
             NULLIF(SUM(r.never_used_bytes + r.used_bytes), 0), 1) AS never_used_pct,
       SUM(r.never_used_bytes IS NULL)                   AS boots_without_access_events
FROM recordings AS r
GROUP BY r.host
ORDER BY SUM(r.never_used_bytes) DESC, r.host;
