package io.github.leanscrape.exposition.direct;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.direct.MeterIndex.ScrapePlan;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Keeps what the last full direct scrape held, for the cardinality report, and warns once
 * when a scrape holds more series than a threshold.
 *
 * @author leanscrape
 */
final class CardinalityTracker {

	private static final Log logger = LogFactory.getLog(CardinalityTracker.class);

	private final long warnThreshold;

	private volatile @Nullable LastScrape lastFullScrape;

	private volatile boolean warned;

	/**
	 * Create a new tracker.
	 * @param warnThreshold the series in one scrape above which a warning is logged, once
	 */
	CardinalityTracker(long warnThreshold) {
		this.warnThreshold = warnThreshold;
	}

	/**
	 * Remember a full direct scrape. The direct families' figures live in the families.
	 * @param format its format
	 * @param plan its plan
	 * @param referenceReports the families the reference path wrote in it
	 * @param lines its sample lines
	 * @param bytes its size
	 */
	void fullScrape(PrometheusOutputFormat format, ScrapePlan plan, @Nullable FamilyReport[] referenceReports,
			long lines, long bytes) {
		this.lastFullScrape = new LastScrape(format, plan, referenceReports, lines, bytes);
		if (lines > this.warnThreshold && !this.warned) {
			this.warned = true;
			logger.warn("A scrape wrote " + lines + " series, more than leanscrape.cardinality.warn-threshold ("
					+ this.warnThreshold + "); the 'leanscrape' actuator endpoint shows which "
					+ "families hold them. This is logged once.");
		}
	}

	/**
	 * Return the report of the last full direct scrape, family by family, largest first.
	 * @param wholeScrapeFallbacks the scrapes that went to the reference path as a whole
	 * @param reasons how many went there for each reason
	 * @param familyFallbacks the families the reference path wrote inside direct scrapes
	 * @param familyReasons how many it wrote for each reason
	 * @return the report, or {@code null} before the first full direct scrape and the
	 * first fallback
	 */
	@Nullable CardinalityReport report(long wholeScrapeFallbacks, Map<String, Long> reasons, long familyFallbacks,
			Map<String, Long> familyReasons) {
		LastScrape last = this.lastFullScrape;
		if (last == null) {
			// Only fallbacks so far, or filtered scrapes: why is worth reporting by
			// itself.
			return (reasons.isEmpty() && familyReasons.isEmpty()) ? null : new CardinalityReport(null, 0, 0,
					wholeScrapeFallbacks, reasons, familyFallbacks, familyReasons, List.of());
		}
		List<FamilyReport> reports = new ArrayList<>();
		for (Family family : last.plan.families()) {
			reports.add(new FamilyReport(family.name, family.lastLines, family.lastBytes, "direct"));
		}
		for (FamilyReport report : last.referenceReports) {
			if (report != null) {
				reports.add(report);
			}
		}
		reports.sort(
				(a, b) -> (a.bytes() != b.bytes()) ? Long.compare(b.bytes(), a.bytes()) : a.name().compareTo(b.name()));
		return new CardinalityReport(BodyKind.formatName(last.format), last.lines, last.bytes, wholeScrapeFallbacks,
				reasons, familyFallbacks, familyReasons, reports);
	}

	private record LastScrape(PrometheusOutputFormat format, ScrapePlan plan, @Nullable FamilyReport[] referenceReports,
			long lines, long bytes) {

	}

}
