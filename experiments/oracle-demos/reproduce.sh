#!/usr/bin/env bash
# Record MiniArena's oracle on 8 train and 5 test tasks of every template (441 tasks, ≈17 minutes)
# as the policy sees them: experiments/oracle-demos/reproduce.sh [OUT.json]
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build
node dist/experiments/oracle-demos/demos.js "${1:-${TTI_DEMOS:-/tmp/tti-demos.json}}" 8 5
