#!/usr/bin/env bash
# Run a command in a worktree of an earlier commit, built, with this checkout's node_modules: the
# way to rerun a study whose policy, scripts or task suite have since left the product.
#   experiments/at-commit.sh COMMIT COMMAND...   e.g. experiments/at-commit.sh bcffb8a experiments/tier-3/reproduce.sh
# Afterwards: rm DIR/node_modules, then git worktree remove --force DIR (the link first).
set -euo pipefail
commit=${1:?usage: at-commit.sh COMMIT COMMAND...}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${TTI_WORKTREES:-/tmp}/tti-at-$commit
[ -d "$dir" ] || git -C "$here" worktree add --detach "$dir" "$commit"
[ -e "$dir/node_modules" ] || ln -s "$here/node_modules" "$dir/node_modules"
cd "$dir"
npm run build
"$@"
