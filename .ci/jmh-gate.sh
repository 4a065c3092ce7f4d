#!/bin/sh
# The benchmark gate of the CI: a short JMH run of Spring Boot's endpoint against
# leanscrape's (ScrapeBenchmark, 10000 series, -prof gc): text, OpenMetrics and protobuf of
# the meters alone, with tracing on (exemplars) and with created timestamps on (the text
# formats' _created samples); then BenchmarkGate, which fails the
# build when leanscrape allocates more per scrape than the given share of what Spring Boot's
# endpoint allocates in the same run, or more than a budget of bytes per series.
#
#   .ci/jmh-gate.sh                                    # ratio 1.0, no budget
#   JMH_GATE_RATIO=0.01 JMH_GATE_BYTES_PER_SERIES=8 .ci/jmh-gate.sh
#   .ci/jmh-gate.sh -Pmicrometer-next                  # other arguments go to Maven
#
# Results: target/jmh-result.json (JMH) and target/jmh-table.md (the table).
set -eu
cd "$(dirname "$0")/.."
ratio="${JMH_GATE_RATIO:-1.0}"
budget="${JMH_GATE_BYTES_PER_SERIES:-0}"
exec ./mvnw -B -Pjmh -DskipTests verify \
	"-Djmh.args=ScrapeBenchmark -p seriesCount=10000 -p format=text,openmetrics,protobuf -p configuration=plain,tracing,created -f 1 -wi 2 -i 3 -prof gc -rf json -rff target/jmh-result.json" \
	"-Djmh.gate.args=--results target/jmh-result.json --series 10000 --ratio $ratio --openmetrics-ratio $ratio --protobuf-ratio $ratio --check openmetrics/tracing=$ratio --check protobuf/tracing=$ratio --check text/created=$ratio --check openmetrics/created=$ratio --max-bytes-per-series $budget --table-out target/jmh-table.md" \
	"$@"
