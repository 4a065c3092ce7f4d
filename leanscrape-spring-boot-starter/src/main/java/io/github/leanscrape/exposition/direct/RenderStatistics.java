package io.github.leanscrape.exposition.direct;

import org.jspecify.annotations.Nullable;

/**
 * What a renderer tells about its work, for the starter's metrics and cardinality report.
 *
 * @author leanscrape
 */
public interface RenderStatistics {

	/**
	 * Return how many scrapes went to the reference path as a whole.
	 * @return the count
	 */
	long wholeScrapeFallbacks();

	/**
	 * Return how many families the reference path wrote inside direct scrapes, in all.
	 * @return the count
	 */
	long familyFallbacks();

	/**
	 * Return the cardinality report.
	 * @return the report, or {@code null} before the first full scrape or fallback
	 */
	@Nullable CardinalityReport cardinality();

}
