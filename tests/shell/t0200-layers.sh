#!/bin/sh
# The layers of docs/design.md, checked: each folder of src/ includes only
# the folders its row of the "Layers" table names ("may include"), so a
# view that reaches into the plugin host, or a plugin into a view, fails
# here rather than in review.
. "$(dirname "$0")/../test-lib.sh"

DOC=$TOP/docs/design.md
SRC=$TOP/src
[ -f "$DOC" ] || skip_all "no docs/design.md"
layers="util tracefile resolve capture analysis replay doc plugin views"

# "| `src/views/` | job | analysis, doc, replay (why), util |" -> "views: analysis doc replay util"
rules=$(awk -F'|' '/^\| `src\/[a-z]+\/` \|/ {
	dir = $2; gsub(/[ `]|src\/|\//, "", dir)
	may = $4; gsub(/\([^)]*\)/, "", may)
	n = split(may, w, ",")
	out = ""
	for (i = 1; i <= n; i++) { sub(/^ +/, "", w[i]); split(w[i], f, " "); out = out " " f[1] }
	print dir ":" out
}' "$DOC")
expect 'the Layers table names every folder of src/' \
	"for l in $layers; do echo '$rules' | grep -q \"^\$l:\" || exit 1; done"

bad=
for l in $layers; do
	allowed=$(echo "$rules" | sed -n "s/^$l://p")
	for f in $(find "$SRC/$l" -name '*.[ch]'); do
		for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$f" | sort -u); do
			[ "$inc" = "$l" ] && continue
			case " $layers " in *" $inc "*) ;; *) continue ;; esac
			case " $allowed " in
			*" $inc "*) ;;
			*) bad="$bad ${f#$TOP/}->$inc" ;;
			esac
		done
	done
done
[ -z "$bad" ] || echo "# not in the table:$bad"
expect 'every include between folders of src/ is one the table allows' "[ -z '$bad' ]"
expect 'views and the plugin host never include each other' \
	"! grep -rl '^#include \"plugin/' '$SRC/views' && ! grep -rl '^#include \"views/' '$SRC/plugin'"
