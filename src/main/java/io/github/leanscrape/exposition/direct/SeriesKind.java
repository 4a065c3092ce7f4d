package io.github.leanscrape.exposition.direct;

/**
 * What a family's sample lines look like, and so how its series are written.
 *
 * @author leanscrape
 */
enum SeriesKind {

	/**
	 * {@code name_total{labels} value}: counters and function counters.
	 */
	COUNTER("counter"),

	/**
	 * {@code name{labels} value}: gauges, time gauges and multi-gauge rows.
	 */
	GAUGE("gauge"),

	/**
	 * {@code name_max{labels} value}: the maximum of a timer or distribution summary.
	 */
	MAX("gauge"),

	/**
	 * Quantiles, {@code _count} and {@code _sum}: timers and distribution summaries
	 * without a histogram, function timers.
	 */
	SUMMARY("summary"),

	/**
	 * Cumulative {@code _bucket} lines, {@code _count} and {@code _sum}: timers and
	 * distribution summaries that publish a histogram.
	 */
	HISTOGRAM("histogram"),

	/**
	 * {@code name_info{labels} 1}: gauges named {@code *.info}, which Micrometer exports
	 * as info metrics; typed {@code gauge} in text 0.0.4 and {@code info} in OpenMetrics.
	 */
	INFO("gauge");

	private final String type;

	SeriesKind(String type) {
		this.type = type;
	}

	String type() {
		return this.type;
	}

}
