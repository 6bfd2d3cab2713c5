#!/usr/bin/env bash
# The region plan's one command (docs/multi-region.md).
#
#   infra/regions.sh deploy  [plan]        check the plan, then `sam deploy` the registry and every stack, in order
#   infra/regions.sh plan    [plan]        check the plan: every stack states its block, blocks disjoint, one registry
#   infra/regions.sh claims  [plan]        the registry: every block's claim in force and its history
#   infra/regions.sh release [plan] <env>  give a stack's block back (refused while a lease of it is in force)
#                    [--claim-table-deleted]  …whose claim was made from a deleted table of the stack (a recreated stack)
#   infra/regions.sh claim   [plan] <env>  claim again a block the stack released
#
# The plan defaults to infra/regions.toml. Every verb but deploy runs the region command of the
# function jar you deploy (SNOWID_FUNCTION_JAR, default lambda/target/snowid-function.jar), with
# the AWS credentials of your environment.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
jar="${SNOWID_FUNCTION_JAR:-$here/../lambda/target/snowid-function.jar}"

usage() {
    sed -n '4,8p' "$0" | sed 's/^# //' >&2
    exit 2
}

[ $# -ge 1 ] || usage
verb="$1"
shift
plan="$here/regions.toml"
if [ $# -ge 1 ] && [[ "$1" == *.toml ]]; then
    plan="$1"
    shift
fi
[ -f "$plan" ] || { echo "no region plan at $plan" >&2; exit 2; }
# sam resolves a relative --config-file against the template's folder: pass it absolute.
plan="$(cd "$(dirname "$plan")" && pwd)/$(basename "$plan")"
[ -f "$jar" ] || { echo "no function jar at $jar: mvn -q -pl lambda -am package -DskipTests" >&2; exit 2; }

region_command() {
    java -cp "$jar" dev.snowid.lambda.region.RegionCommand "$@"
}

case "$verb" in
    deploy)
        [ $# -eq 0 ] || usage
        region_command plan "$plan"
        for env in $(region_command plan "$plan" --envs); do
            template="$here/template.yaml"
            [ "$env" = registry ] && template="$here/registry.yaml"
            echo "== sam deploy --config-env $env"
            sam deploy --template-file "$template" --config-file "$plan" --config-env "$env"
        done
        ;;
    plan | claims | release | claim)
        region_command "$verb" "$plan" "$@"
        ;;
    *)
        usage
        ;;
esac
