#!/bin/sh
# The benchmark gate of the CI: a short JMH run of Spring Boot's endpoint against
# leanscrape's (ScrapeBenchmark, 10000 series, text and OpenMetrics, one fork, -prof gc),
# then BenchmarkGate, which fails the build when leanscrape allocates more per scrape
# than the given share of what Spring Boot's endpoint allocates in the same run.
#
#   .ci/jmh-gate.sh                                    # both formats, ratio 1.0
#   JMH_GATE_RATIO=0.05 .ci/jmh-gate.sh                # tighter
#   JMH_GATE_OPENMETRICS_RATIO=off .ci/jmh-gate.sh     # text only
#   .ci/jmh-gate.sh -Pmicrometer-next                  # other arguments go to Maven
#
# Results: target/jmh-result.json (JMH) and target/jmh-table.md (the table).
set -eu
cd "$(dirname "$0")/.."
ratio="${JMH_GATE_RATIO:-1.0}"
openmetrics_ratio="${JMH_GATE_OPENMETRICS_RATIO:-$ratio}"
exec ./mvnw -B -Pjmh -DskipTests verify \
	"-Djmh.args=ScrapeBenchmark -p seriesCount=10000 -p format=text,openmetrics -f 1 -wi 2 -i 3 -prof gc -rf json -rff target/jmh-result.json" \
	"-Djmh.gate.args=--results target/jmh-result.json --series 10000 --ratio $ratio --openmetrics-ratio $openmetrics_ratio --table-out target/jmh-table.md" \
	"$@"
