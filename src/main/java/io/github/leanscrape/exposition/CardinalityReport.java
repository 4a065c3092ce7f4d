package io.github.leanscrape.exposition;

import java.util.List;

/**
 * What the last full scrape held, family by family, largest first: which metric made a
 * scrape large.
 *
 * @param format the format of that scrape
 * @param series the sample lines it had
 * @param bytes its size
 * @param wholeScrapeFallbacks how many scrapes so far went to the reference path as a
 * whole (and are not reported here)
 * @param families each family, largest first
 * @author leanscrape
 */
public record CardinalityReport(String format, long series, long bytes, long wholeScrapeFallbacks,
		List<FamilyReport> families) {

}
