package io.github.leanscrape.exposition;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the last full direct scrape held, family by family, largest first: which metric
 * made a scrape large; and why scrapes, or families inside direct scrapes, went to the
 * reference path, if any did.
 *
 * @param format the format of that scrape, or {@code null} when every scrape so far went
 * to the reference path as a whole, or none was full
 * @param series the sample lines it had
 * @param bytes its size
 * @param wholeScrapeFallbacks how many scrapes so far went to the reference path as a
 * whole (their families are not in this report)
 * @param wholeScrapeFallbackReasons how many of those went there for each reason
 * @param familyFallbacks how many families, summed over all scrapes so far, the reference
 * path wrote inside direct scrapes
 * @param familyFallbackReasons how many of those it wrote for each reason
 * @param families each family, largest first
 * @author leanscrape
 */
public record CardinalityReport(@Nullable String format, long series, long bytes, long wholeScrapeFallbacks,
		Map<String, Long> wholeScrapeFallbackReasons, long familyFallbacks, Map<String, Long> familyFallbackReasons,
		List<FamilyReport> families) {

	/**
	 * Create a report without families written by the reference path inside direct
	 * scrapes.
	 * @param format the format of the last full direct scrape, or {@code null}
	 * @param series the sample lines it had
	 * @param bytes its size
	 * @param wholeScrapeFallbacks how many scrapes went to the reference path as a whole
	 * @param wholeScrapeFallbackReasons how many of those went there for each reason
	 * @param families each family, largest first
	 */
	public CardinalityReport(@Nullable String format, long series, long bytes, long wholeScrapeFallbacks,
			Map<String, Long> wholeScrapeFallbackReasons, List<FamilyReport> families) {
		this(format, series, bytes, wholeScrapeFallbacks, wholeScrapeFallbackReasons, 0, Map.of(), families);
	}

}
