package io.github.leanscrape.exposition.direct;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.internal.DefaultMeter;
import io.micrometer.prometheusmetrics.PrometheusDistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusTimer;
import org.jspecify.annotations.Nullable;

/**
 * The families a meter of a given kind feeds, as Micrometer's Prometheus registry lays
 * them out. Meters the direct path does not write (meters of other registries) have no
 * shape and stay on the reference path.
 *
 * @author leanscrape
 */
enum ShapeOfMeter {

	COUNTER, GAUGE, TIMER_SUMMARY, TIMER_HISTOGRAM, DISTRIBUTION_SUMMARY_SUMMARY, DISTRIBUTION_SUMMARY_HISTOGRAM,
	FUNCTION_TIMER, LONG_TASK_TIMER_SUMMARY, LONG_TASK_TIMER_HISTOGRAM, INFO, CUSTOM;

	/**
	 * Return the shape of a meter, or {@code null} when the direct path does not write
	 * it.
	 * @param meter the meter
	 * @param customMeters whether custom meters are written directly (see
	 * {@link CustomStatistics#CREATED_ONCE})
	 * @return the shape
	 */
	static @Nullable ShapeOfMeter of(Meter meter, boolean customMeters) {
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
		if (meter instanceof DefaultMeter && customMeters && meter.measure().iterator().hasNext()) {
			return CUSTOM;
		}
		return null;
	}

	/**
	 * Create the families that meters of this shape feed.
	 * @param meter the first meter of the name
	 * @param conventionName the Prometheus name of the meters
	 * @param help the help text
	 * @return the families, in the order of their series arrays (a custom meter's series
	 * say which family they belong to)
	 */
	Family[] families(Meter meter, String conventionName, String help) {
		return switch (this) {
			case CUSTOM -> customFamilies(meter, conventionName, help);
			case COUNTER -> new Family[] { new Family(conventionName, SeriesKind.COUNTER, help, conventionName) };
			case GAUGE -> new Family[] { new Family(conventionName, SeriesKind.GAUGE, help, conventionName) };
			case INFO -> new Family[] { new Family(conventionName, SeriesKind.INFO, help, conventionName) };
			case TIMER_SUMMARY, DISTRIBUTION_SUMMARY_SUMMARY, LONG_TASK_TIMER_SUMMARY ->
				new Family[] { new Family(conventionName, SeriesKind.SUMMARY, help, conventionName),
						new Family(conventionName + "_max", SeriesKind.MAX, help, conventionName) };
			case TIMER_HISTOGRAM, DISTRIBUTION_SUMMARY_HISTOGRAM ->
				new Family[] { new Family(conventionName, SeriesKind.HISTOGRAM, help, conventionName),
						new Family(conventionName + "_max", SeriesKind.MAX, help, conventionName) };
			case LONG_TASK_TIMER_HISTOGRAM ->
				new Family[] { new Family(conventionName, SeriesKind.GAUGE_HISTOGRAM, help, conventionName),
						new Family(conventionName + "_max", SeriesKind.MAX, help, conventionName) };
			case FUNCTION_TIMER ->
				new Family[] { new Family(conventionName, SeriesKind.SUMMARY, help, conventionName) };
		};
	}

	private static Family[] customFamilies(Meter meter, String conventionName, String help) {
		List<Family> families = new ArrayList<>();
		Set<String> names = new HashSet<>();
		for (Statistic statistic : CustomStatistics.of(meter)) {
			String name = conventionName + CustomStatistics.suffix(statistic);
			if (names.add(name)) {
				families.add(new Family(name, CustomStatistics.kind(statistic), help, conventionName));
			}
		}
		return families.toArray(new Family[0]);
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
			case CUSTOM -> CustomStatistics.LABEL;
			default -> null;
		};
	}

}
