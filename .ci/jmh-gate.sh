#!/bin/sh
# The benchmark gate: exactly what ./mvnw -Pjmh verify runs by default (the pom's jmh.args and
# jmh.gate.args), a short JMH run of every gated benchmark, -prof gc, then BenchmarkGate. It fails
# when the starter allocates more than 8 bytes per series in any format and configuration at 10,000
# series, or when a row of leanscrape-benchmarks/gate-budgets.properties goes over its budget (and it checks that a doubling of any row
# would): the fixed cost of a scrape at 1,000 series, gzip and zstd scrapes, a scrape through Tomcat
# and Netty less the server's own floor, and request recording. Then the gate is shown failing: the
# same results with one row's bytes doubled must not pass (the fixed cost, then three scrapers in turn),
# and the same results with one row's reuse counters at 0 must not pass its floors.
#
#   .ci/jmh-gate.sh                     # as CI runs it
#   .ci/jmh-gate.sh -Pmicrometer-next   # other arguments go to Maven
#
# Results: leanscrape-benchmarks/target/jmh-result.json (JMH), leanscrape-benchmarks/target/jmh-table.md.
set -eu
cd "$(dirname "$0")/.."
# Installed, so that the planted runs below find the starter and the demo beside the benchmarks.
./mvnw -B -Pjmh -DskipTests install "$@"
# Shown failing on two rows: the fixed cost of a scrape, and three scrapers in turn (a chunk pool
# that refills for one of the codings).
for planted in 'FixedCostBenchmark.leanscrape{format=text}' \
	'ChangingScrapeBenchmark.scrape{seriesCount=10000,format=openmetrics,coding=gzip-zstd-identity,change=10-blocks,reuse=true}'; do
	if ./mvnw -q -B -Pjmh -pl leanscrape-benchmarks exec:exec@jmh-gate \
		"-Djmh.gate.args=--results target/jmh-result.json --budgets gate-budgets.properties --plant $planted" "$@" \
		>leanscrape-benchmarks/target/jmh-gate-planted.txt 2>&1; then
		cat leanscrape-benchmarks/target/jmh-gate-planted.txt
		echo "The gate passed a planted regression ($planted twice its bytes): it would not catch one." >&2
		exit 1
	fi
	grep -F "$planted" leanscrape-benchmarks/target/jmh-gate-planted.txt
	echo "The gate fails on a planted regression ($planted twice its bytes), as it must."
done
# Shown failing when reuse stops: the three scrapers in turn with no block copied and no segment reused
# (as with reuse off, whose bytes stay within the row's budget: only the floors catch it).
planted='ChangingScrapeBenchmark.scrape{seriesCount=10000,format=openmetrics,coding=gzip-zstd-identity,change=10-blocks,reuse=true}'
if ./mvnw -q -B -Pjmh -pl leanscrape-benchmarks exec:exec@jmh-gate \
	"-Djmh.gate.args=--results target/jmh-result.json --budgets gate-budgets.properties --plant-no-reuse $planted" "$@" \
	>leanscrape-benchmarks/target/jmh-gate-planted.txt 2>&1; then
	cat leanscrape-benchmarks/target/jmh-gate-planted.txt
	echo "The gate passed a planted stop of reuse ($planted reusing nothing): it would not catch one." >&2
	exit 1
fi
grep -F "$planted" leanscrape-benchmarks/target/jmh-gate-planted.txt | grep -F 'BELOW FLOOR'
echo "The gate fails on a planted stop of reuse ($planted reusing nothing), as it must."
