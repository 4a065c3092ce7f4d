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
	COUNTER("counter", 0, true),

	/**
	 * {@code name{labels} value}: gauges, time gauges and multi-gauge rows.
	 */
	GAUGE("gauge", 1, false),

	/**
	 * {@code name_max{labels} value}: the maximum of a timer or distribution summary.
	 */
	MAX("gauge", 1, false),

	/**
	 * Quantiles, {@code _count} and {@code _sum}: timers and distribution summaries
	 * without a histogram, function timers.
	 */
	SUMMARY("summary", 2, true),

	/**
	 * Cumulative {@code _bucket} lines, {@code _count} and {@code _sum}: timers and
	 * distribution summaries that publish a histogram.
	 */
	HISTOGRAM("histogram", 4, true),

	/**
	 * Cumulative {@code _bucket} lines, {@code _gcount} and {@code _gsum}: long task
	 * timers that publish a histogram. Text 0.0.4 has no gauge histograms: it types them
	 * {@code histogram} and writes {@code _gcount} and {@code _gsum} as gauge families of
	 * their own after the buckets.
	 */
	GAUGE_HISTOGRAM("histogram", 5, true),

	/**
	 * {@code name_info{labels} 1}: gauges named {@code *.info}, which Micrometer exports
	 * as info metrics; typed {@code gauge} in text 0.0.4 and {@code info} in OpenMetrics.
	 */
	INFO("gauge", 1, false);

	private final String type;

	private final int protobufType;

	private final boolean created;

	SeriesKind(String type, int protobufType, boolean created) {
		this.type = type;
		this.protobufType = protobufType;
		this.created = created;
	}

	String type() {
		return this.type;
	}

	/**
	 * Return the {@code MetricType} of the protobuf format: client_java writes an info
	 * metric as a gauge there.
	 * @return the enum's number
	 */
	int protobufType() {
		return this.protobufType;
	}

	/**
	 * Return whether series of this kind have a created timestamp: Micrometer's registry
	 * gives one to counters, summaries and histograms, none to gauges.
	 * @return {@code true} for counters, summaries and histograms
	 */
	boolean hasCreated() {
		return this.created;
	}

}
