#!/bin/sh
# Run every benchmark in bench/ (each an executable printing its own table).
# Usage: bench/run.sh [PATTERN]
cd "$(dirname "$0")/.." || exit 1
status=0
for b in bench/*; do
	[ -f "$b" ] && [ -x "$b" ] || continue
	case "$b" in bench/run.sh | *.md | *.txt) continue ;; esac
	case "$b" in *"${1:-}"*) ;; *) continue ;; esac
	echo "== $(basename "$b")"
	"$b" || status=1
done
exit $status
