package io.github.leanscrape.exposition.direct;

import io.prometheus.metrics.model.snapshots.Exemplar;
import org.jspecify.annotations.Nullable;

/**
 * What an OpenMetrics or protobuf scrape needs to write exemplars: the moment it reads
 * them, against which their retention is judged, whether client_java would write them
 * beyond counters and buckets ({@code io.prometheus.exporter.exemplarsOnAllMetricTypes},
 * on in Micrometer's and so Spring Boot's defaults: on {@code _count} and quantile
 * lines), and room for the exemplars of a block of counters, read ahead as their values
 * are.
 *
 * @author leanscrape
 */
final class ExemplarScrape {

	private final long now;

	private final boolean allMetricTypes;

	final @Nullable Exemplar[] block = new Exemplar[ScrapeWorkspace.VALUE_BLOCK];

	/**
	 * Create the exemplar settings of one scrape.
	 * @param now the scrape's wall-clock time in milliseconds, as client_java's sampler
	 * reads it
	 * @param allMetricTypes whether {@code _count} and quantile lines carry exemplars
	 */
	ExemplarScrape(long now, boolean allMetricTypes) {
		this.now = now;
		this.allMetricTypes = allMetricTypes;
	}

	long now() {
		return this.now;
	}

	boolean allMetricTypes() {
		return this.allMetricTypes;
	}

}
