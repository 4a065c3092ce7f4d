package io.github.leanscrape.exposition;

import org.jspecify.annotations.Nullable;

/**
 * What a renderer tells about its work, for the starter's own metrics and the cardinality
 * report: how often the direct path left work to the reference path, and what the last
 * full scrape held.
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
	 * Return how many families, summed over all scrapes, the reference path wrote inside
	 * direct scrapes.
	 * @return the count
	 */
	long familyFallbacks();

	/**
	 * Return what the last full direct scrape held, family by family, largest first, and
	 * why scrapes, or families inside direct scrapes, went to the reference path.
	 * @return the report, or {@code null} before the first full direct scrape and the
	 * first fallback
	 */
	@Nullable CardinalityReport cardinality();

}
