package io.github.leanscrape.serve;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Where the starter records each scrape request once, when its response is done.
 *
 * @author leanscrape
 */
public interface SelfMetrics {

	/** Metrics that record nothing. */
	SelfMetrics NONE = (format, outcome, durationNanos, bodyBytes, sentBytes) -> {
	};

	/**
	 * Record one finished scrape request.
	 * @param format the format
	 * @param outcome how it ended
	 * @param durationNanos from the request reaching the web layer to the response's end
	 * @param bodyBytes the size of the uncompressed body, or {@code -1} if none was made
	 * @param sentBytes the size of the body as sent, or {@code -1} when none was sent
	 */
	void scraped(PrometheusOutputFormat format, Outcome outcome, long durationNanos, long bodyBytes, long sentBytes);

}
