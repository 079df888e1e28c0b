-- Top files across all boots: the files that made boots wait most, with
-- how many boots read them and what they read on average.
--   sqlite3 -header -column fleet.db < examples/fleet/top-files.sql
SELECT f.path,
       COUNT(DISTINCT f.recording_id)                AS boots,
       ROUND(SUM(f.wait_ns) / 1e9, 3)                AS wait_s,
       ROUND(AVG(f.wait_ns) / 1e6, 1)                AS avg_wait_ms,
       ROUND(AVG(f.bytes_read) / 1048576.0, 2)       AS avg_read_mib
FROM files AS f
GROUP BY f.path
ORDER BY SUM(f.wait_ns) DESC, SUM(f.bytes_read) DESC, f.path
LIMIT 20;
