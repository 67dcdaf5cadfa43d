#!/usr/bin/env bash
# The cluster suite (test/cluster/, Jest project `cluster`): starts the local Galera cluster and
# Redis Cluster (scripts/local-cluster.sh, in a folder of its own), runs the suite against them and
# stops them again, whatever the outcome. Extra arguments go to Jest. (.ci/run starts the same
# cluster around the whole `npm test`, which then includes this suite.)
set -euo pipefail
cd "$(dirname "$0")/.."
LOCAL_CLUSTER_DIR="$(mktemp -d /tmp/tenant-service-cluster.XXXXXX)"
export LOCAL_CLUSTER_DIR
scripts/local-cluster.sh up
trap 'scripts/local-cluster.sh down' EXIT
eval "$(scripts/local-cluster.sh env)"
npx jest --selectProjects cluster "$@"
