-- Regressions per kernel version: per kernel, the median-free averages of
-- user-space duration and I/O wait over its boots, and how much worse each
-- kernel is than the best one (slowest first).
--   sqlite3 -header -column fleet.db < examples/fleet/regressions-per-kernel.sql
WITH per_kernel AS (
  SELECT r.kernel,
         COUNT(*)                 AS boots,
         AVG(p.duration_ns)       AS userspace_ns,
         AVG(r.wait_ns)           AS wait_ns,
         AVG(r.read_bytes)        AS read_bytes
  FROM recordings AS r
  JOIN phases AS p ON p.recording_id = r.id AND p.name = 'userspace' AND p.reached = 1
  GROUP BY r.kernel
),
best AS (SELECT MIN(wait_ns) AS wait_ns, MIN(userspace_ns) AS userspace_ns FROM per_kernel)
SELECT k.kernel,
       k.boots,
       ROUND(k.userspace_ns / 1e9, 3)                    AS userspace_s,
       ROUND((k.userspace_ns - b.userspace_ns) / 1e6, 1) AS userspace_over_best_ms,
       ROUND(k.wait_ns / 1e9, 3)                         AS io_wait_s,
       ROUND((k.wait_ns - b.wait_ns) / 1e6, 1)           AS io_wait_over_best_ms,
       ROUND(k.read_bytes / 1048576.0, 1)                AS read_mib
FROM per_kernel AS k, best AS b
ORDER BY k.wait_ns DESC, k.kernel;
