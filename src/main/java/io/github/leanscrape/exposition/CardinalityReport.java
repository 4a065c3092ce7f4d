package io.github.leanscrape.exposition;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the last full direct scrape held, family by family, largest first: which metric
 * made a scrape large; and why scrapes went to the reference path as a whole, if any did.
 *
 * @param format the format of that scrape, or {@code null} when every scrape so far went
 * to the reference path as a whole
 * @param series the sample lines it had
 * @param bytes its size
 * @param wholeScrapeFallbacks how many scrapes so far went to the reference path as a
 * whole (their families are not in this report)
 * @param wholeScrapeFallbackReasons how many of those went there for each reason
 * @param families each family, largest first
 * @author leanscrape
 */
public record CardinalityReport(@Nullable String format, long series, long bytes, long wholeScrapeFallbacks,
		Map<String, Long> wholeScrapeFallbackReasons, List<FamilyReport> families) {

}
