package io.github.leanscrape.exposition.direct;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusDistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusTimer;
import org.jspecify.annotations.Nullable;

/**
 * The families a meter of a given kind feeds, as Micrometer's Prometheus registry lays
 * them out. Meters the direct path does not write (custom meters, meters of other
 * registries) have no shape and stay on the reference path.
 *
 * @author leanscrape
 */
enum ShapeOfMeter {

	COUNTER, GAUGE, TIMER_SUMMARY, TIMER_HISTOGRAM, DISTRIBUTION_SUMMARY_SUMMARY, DISTRIBUTION_SUMMARY_HISTOGRAM,
	FUNCTION_TIMER, LONG_TASK_TIMER_SUMMARY, LONG_TASK_TIMER_HISTOGRAM, INFO;

	/**
	 * Return the shape of a meter, or {@code null} when the direct path does not write
	 * it.
	 * @param meter the meter
	 * @return the shape
	 */
	static @Nullable ShapeOfMeter of(Meter meter) {
		if (meter instanceof Counter || meter instanceof FunctionCounter) {
			return COUNTER;
		}
		if (meter instanceof Gauge) {
			// Micrometer exports a gauge named *.info as an info metric, whose value is
			// always 1.
			return meter.getId().getName().endsWith(".info") ? INFO : GAUGE;
		}
		if (meter instanceof PrometheusTimer timer) {
			return (timer.histogramCounts().length > 0) ? TIMER_HISTOGRAM : TIMER_SUMMARY;
		}
		if (meter instanceof PrometheusDistributionSummary summary) {
			return (summary.histogramCounts().length > 0) ? DISTRIBUTION_SUMMARY_HISTOGRAM
					: DISTRIBUTION_SUMMARY_SUMMARY;
		}
		if (meter instanceof FunctionTimer) {
			return FUNCTION_TIMER;
		}
		if (meter instanceof LongTaskTimer longTask) {
			// With buckets Micrometer writes a gauge histogram: the tasks running now.
			return (longTask.takeSnapshot().histogramCounts().length > 0) ? LONG_TASK_TIMER_HISTOGRAM
					: LONG_TASK_TIMER_SUMMARY;
		}
		return null;
	}

	/**
	 * Create the families that meters of this shape feed.
	 * @param conventionName the Prometheus name of the meters
	 * @param help the help text
	 * @return the families, in the order of their series arrays
	 */
	Family[] families(String conventionName, String help) {
		return switch (this) {
			case COUNTER -> new Family[] { new Family(conventionName, SeriesKind.COUNTER, help) };
			case GAUGE -> new Family[] { new Family(conventionName, SeriesKind.GAUGE, help) };
			case INFO -> new Family[] { new Family(conventionName, SeriesKind.INFO, help) };
			case TIMER_SUMMARY, DISTRIBUTION_SUMMARY_SUMMARY, LONG_TASK_TIMER_SUMMARY ->
				new Family[] { new Family(conventionName, SeriesKind.SUMMARY, help),
						new Family(conventionName + "_max", SeriesKind.MAX, help) };
			case TIMER_HISTOGRAM, DISTRIBUTION_SUMMARY_HISTOGRAM ->
				new Family[] { new Family(conventionName, SeriesKind.HISTOGRAM, help),
						new Family(conventionName + "_max", SeriesKind.MAX, help) };
			case LONG_TASK_TIMER_HISTOGRAM ->
				new Family[] { new Family(conventionName, SeriesKind.GAUGE_HISTOGRAM, help),
						new Family(conventionName + "_max", SeriesKind.MAX, help) };
			case FUNCTION_TIMER -> new Family[] { new Family(conventionName, SeriesKind.SUMMARY, help) };
		};
	}

	/**
	 * Return the label name the families of this shape add to every series, which a meter
	 * must not have as a tag.
	 * @return {@code le}, {@code quantile}, or {@code null}
	 */
	@Nullable String reservedLabel() {
		return switch (this) {
			case TIMER_SUMMARY, DISTRIBUTION_SUMMARY_SUMMARY, FUNCTION_TIMER, LONG_TASK_TIMER_SUMMARY -> "quantile";
			case TIMER_HISTOGRAM, DISTRIBUTION_SUMMARY_HISTOGRAM, LONG_TASK_TIMER_HISTOGRAM -> "le";
			default -> null;
		};
	}

}
