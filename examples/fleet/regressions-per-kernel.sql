-- Regressions per kernel version: per kernel, the median-free averages of
-- user-space duration and I/O wait over its boots, and how much worse each
-- kernel is than the best one (slowest first).
--   sqlite3 -header -column fleet.db < examples/fleet/regressions-per-kernel.sql
-- Written to run unchanged in ClickHouse 18.16 on (no WITH subqueries,
-- no alias named as a column: aliases are global there).
SELECT k.kernel,
       k.boots,
       ROUND(k.avg_userspace_ns / 1e9, 3)                         AS userspace_s,
       ROUND((k.avg_userspace_ns - b.best_userspace_ns) / 1e6, 1) AS userspace_over_best_ms,
       ROUND(k.avg_wait_ns / 1e9, 3)                              AS io_wait_s,
       ROUND((k.avg_wait_ns - b.best_wait_ns) / 1e6, 1)           AS io_wait_over_best_ms,
       ROUND(k.avg_read_bytes / 1048576.0, 1)                     AS read_mib
FROM (
  SELECT r.kernel AS kernel,
         COUNT(*)             AS boots,
         AVG(p.duration_ns)   AS avg_userspace_ns,
         AVG(r.wait_ns)       AS avg_wait_ns,
         AVG(r.read_bytes)    AS avg_read_bytes
  FROM recordings AS r
  JOIN phases AS p ON p.recording_id = r.id
  WHERE p.name = 'userspace' AND p.reached = 1
  GROUP BY r.kernel
) AS k
CROSS JOIN (
  SELECT MIN(kw) AS best_wait_ns, MIN(ku) AS best_userspace_ns
  FROM (
    SELECT AVG(r.wait_ns) AS kw, AVG(p.duration_ns) AS ku
    FROM recordings AS r
    JOIN phases AS p ON p.recording_id = r.id
    WHERE p.name = 'userspace' AND p.reached = 1
    GROUP BY r.kernel
  ) AS per_kernel
) AS b
ORDER BY k.avg_wait_ns DESC, k.kernel;
