package io.github.leanscrape.exposition.direct;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the last full direct scrape held, family by family, and why work went to the
 * reference path.
 *
 * @param format the format of that scrape, or {@code null} when there was none
 * @param series the sample lines it had
 * @param bytes its size
 * @param wholeScrapeFallbacks how many scrapes went wholly to the reference path
 * @param wholeScrapeFallbackReasons how many of those went there for each reason
 * @param familyFallbacks how many families the reference path wrote in direct scrapes
 * @param familyFallbackReasons how many of those it wrote for each reason
 * @param families each family, largest first
 * @author leanscrape
 */
public record CardinalityReport(@Nullable String format, long series, long bytes, long wholeScrapeFallbacks,
		Map<String, Long> wholeScrapeFallbackReasons, long familyFallbacks, Map<String, Long> familyFallbackReasons,
		List<FamilyReport> families) {

}
